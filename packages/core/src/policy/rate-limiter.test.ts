import { describe, expect, it } from "vitest";
import { checkRateLimit, rateWindowStart, recordCall } from "./rate-limiter.js";

const hour = 3_600_000;
const tenPast = Date.UTC(2026, 2, 14, 10, 10, 0); // 10:10:00 UTC
const topOfHour = Date.UTC(2026, 2, 14, 10, 0, 0);

describe("rate limiter", () => {
  it("windows are UTC clock hours", () => {
    expect(rateWindowStart(tenPast)).toBe(topOfHour);
    expect(rateWindowStart(topOfHour)).toBe(topOfHour);
    expect(rateWindowStart(topOfHour - 1)).toBe(topOfHour - hour);
  });

  it("allows the first call with a fresh window", () => {
    const decision = checkRateLimit(null, tenPast, 3);
    expect(decision).toEqual({
      allowed: true,
      window: { windowStart: topOfHour, callsMade: 0 },
      remaining: 3,
    });
  });

  it("allows exactly max_calls_per_hour calls in one hour, then says how long to wait", () => {
    let window = null;
    for (let call = 0; call < 3; call += 1) {
      expect(checkRateLimit(window, tenPast + call, 3).allowed).toBe(true);
      window = recordCall(window, tenPast + call);
    }
    expect(window).toEqual({ windowStart: topOfHour, callsMade: 3 });
    const blocked = checkRateLimit(window, tenPast + 5, 3);
    expect(blocked).toEqual({
      allowed: false,
      window,
      resetAt: topOfHour + hour,
      waitMs: topOfHour + hour - (tenPast + 5),
    });
  });

  it("resets across the hour boundary: the last millisecond blocks, the next hour allows", () => {
    const full = { windowStart: topOfHour, callsMade: 100 };
    const lastMillisecond = topOfHour + hour - 1;
    const atBoundary = topOfHour + hour;
    const lastDecision = checkRateLimit(full, lastMillisecond, 100);
    expect(lastDecision.allowed).toBe(false);
    if (!lastDecision.allowed) expect(lastDecision.waitMs).toBe(1);
    const next = checkRateLimit(full, atBoundary, 100);
    expect(next).toEqual({
      allowed: true,
      window: { windowStart: atBoundary, callsMade: 0 },
      remaining: 100,
    });
    expect(recordCall(full, atBoundary)).toEqual({ windowStart: atBoundary, callsMade: 1 });
  });

  it("a window from a clock set back is replaced instead of blocking", () => {
    const future = { windowStart: topOfHour + 5 * hour, callsMade: 100 };
    expect(checkRateLimit(future, tenPast, 100).allowed).toBe(true);
  });

  it("a call recorded after a long pause starts a new window", () => {
    const old = { windowStart: topOfHour - 3 * hour, callsMade: 42 };
    expect(recordCall(old, tenPast)).toEqual({ windowStart: topOfHour, callsMade: 1 });
  });
});
