import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "./system-clock.js";

// The host clock, under vitest's fake timers (which fake Date.now too): no real waiting.

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse("2026-11-29T12:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

function track(promise: Promise<void>): { readonly done: boolean } {
  const state = { done: false };
  void promise.then(() => {
    state.done = true;
  });
  return state;
}

describe("systemClock.sleep", () => {
  it("resolves after the delay, not before", async () => {
    const sleep = track(systemClock.sleep(5_000));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(sleep.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sleep.done).toBe(true);
  });

  it("sleeps the whole time beyond one host timer's 24.8-day limit", async () => {
    const fortyDays = 40 * 24 * 3_600_000;
    const sleep = track(systemClock.sleep(fortyDays));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sleep.done).toBe(false);
    await vi.advanceTimersByTimeAsync(2 ** 31);
    expect(sleep.done).toBe(false);
    await vi.advanceTimersByTimeAsync(fortyDays - 1_000 - 2 ** 31 - 1);
    expect(sleep.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sleep.done).toBe(true);
  });

  it("resolves early when the signal fires, and at once when it already has", async () => {
    const controller = new AbortController();
    const sleep = track(systemClock.sleep(60_000, controller.signal));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(sleep.done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    const already = track(systemClock.sleep(60_000, controller.signal));
    await vi.advanceTimersByTimeAsync(0);
    expect(already.done).toBe(true);
  });
});
