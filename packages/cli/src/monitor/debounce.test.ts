import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDebounce } from "./debounce.js";

describe("createDebounce", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs once, the delay after the last of a burst", () => {
    const action = vi.fn();
    const debounce = createDebounce(action, 100);
    debounce.trigger();
    vi.advanceTimersByTime(60);
    debounce.trigger();
    vi.advanceTimersByTime(60);
    debounce.trigger();
    vi.advanceTimersByTime(99);
    expect(action).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(action).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(action).toHaveBeenCalledTimes(1);
  });

  it("drops a pending call on cancel", () => {
    const action = vi.fn();
    const debounce = createDebounce(action, 100);
    debounce.trigger();
    debounce.cancel();
    vi.advanceTimersByTime(1000);
    expect(action).not.toHaveBeenCalled();
  });
});
