import { describe, expect, it } from "vitest";
import {
  checkSharedLimitValues,
  claimSharedCall,
  recordSharedCost,
  releaseSharedCall,
  type SharedCounters,
  sharedCountersOf,
  sharedUsage,
} from "./shared-window.js";

const hour = 3_600_000;
const tenOClock = Date.UTC(2026, 2, 14, 10);
const at = (minutes: number) => tenOClock + minutes * 60_000;
const limits = { maxCallsPerHour: 3, maxCostUsd: 10 };

/** Claims `count` calls in a row at `now`, returning the counters and every answer. */
function claimRepeatedly(count: number, now: number, from: SharedCounters | null = null) {
  let counters = from;
  const answers = [];
  for (let index = 0; index < count; index += 1) {
    const claimed = claimSharedCall(counters, now, limits);
    counters = claimed.counters;
    answers.push(claimed.claim);
  }
  return { counters, answers };
}

describe("claimSharedCall", () => {
  it("grants calls up to the hourly limit, counting each, then refuses with the wait to the next UTC hour", () => {
    const { counters, answers } = claimRepeatedly(4, at(40));
    expect(answers.map((answer) => answer.granted)).toEqual([true, true, true, false]);
    expect(answers.slice(0, 3).map((answer) => answer.usage.callsThisHour)).toEqual([1, 2, 3]);
    expect(answers[3]).toEqual({
      granted: false,
      refusal: "calls",
      waitMs: 20 * 60_000,
      usage: {
        windowStart: tenOClock,
        resetAt: tenOClock + hour,
        callsThisHour: 3,
        maxCallsPerHour: 3,
        costUsd: 0,
        maxCostUsd: 10,
      },
    });
    // The refusal counted nothing.
    expect(counters).toEqual({ windowStart: tenOClock, callsMade: 3, costUsd: 0 });
  });

  it("starts a new window at the next UTC hour, keeping the spend", () => {
    const full = claimRepeatedly(3, at(10)).counters;
    const spent = recordSharedCost(full, at(20), 2.5);
    const next = claimSharedCall(spent, at(61), limits);
    expect(next.claim.granted).toBe(true);
    expect(next.counters).toEqual({ windowStart: tenOClock + hour, callsMade: 1, costUsd: 2.5 });
  });

  it("treats a window from a later hour (a clock set back) as another hour: it does not block", () => {
    const later = { windowStart: tenOClock + 5 * hour, callsMade: 3, costUsd: 1 };
    const claimed = claimSharedCall(later, at(5), limits);
    expect(claimed.claim.granted).toBe(true);
    expect(claimed.counters).toEqual({ windowStart: tenOClock, callsMade: 1, costUsd: 1 });
  });

  it("refuses with budget once the spend reaches the budget, even with calls left, and counts nothing", () => {
    const spent = recordSharedCost(null, at(1), 10);
    const claimed = claimSharedCall(spent, at(2), limits);
    expect(claimed.claim).toMatchObject({ granted: false, refusal: "budget" });
    expect(claimed.claim.usage.costUsd).toBe(10);
    expect(claimed.counters.callsMade).toBe(0);
    // Just under the budget, a call is still granted.
    expect(claimSharedCall(recordSharedCost(null, at(1), 9.99), at(2), limits).claim.granted).toBe(
      true,
    );
  });

  it("with no limits (null), grants every call", () => {
    let counters: SharedCounters | null = recordSharedCost(null, at(0), 1_000);
    for (let index = 0; index < 500; index += 1) {
      const claimed = claimSharedCall(counters, at(1), { maxCallsPerHour: null, maxCostUsd: null });
      expect(claimed.claim.granted).toBe(true);
      counters = claimed.counters;
    }
    expect(counters?.callsMade).toBe(500);
  });
});

describe("releaseSharedCall", () => {
  it("gives back one call in the window it was claimed in", () => {
    const { counters } = claimRepeatedly(3, at(10));
    const released = releaseSharedCall(counters, at(11), tenOClock);
    expect(released.callsMade).toBe(2);
    expect(claimSharedCall(released, at(12), limits).claim.granted).toBe(true);
  });

  it("leaves a window that has reset alone, and never goes below 0", () => {
    const { counters } = claimRepeatedly(2, at(10));
    const nextHour = claimSharedCall(counters, at(65), limits).counters;
    expect(releaseSharedCall(nextHour, at(66), tenOClock).callsMade).toBe(1);
    const empty = { windowStart: tenOClock, callsMade: 0, costUsd: 0 };
    expect(releaseSharedCall(empty, at(1), tenOClock).callsMade).toBe(0);
  });
});

describe("sharedUsage", () => {
  it("shows an earlier window's calls as gone and the spend as kept", () => {
    const counters = { windowStart: tenOClock, callsMade: 3, costUsd: 4 };
    expect(sharedUsage(counters, at(90), limits)).toEqual({
      windowStart: tenOClock + hour,
      resetAt: tenOClock + 2 * hour,
      callsThisHour: 0,
      maxCallsPerHour: 3,
      costUsd: 4,
      maxCostUsd: 10,
    });
  });
});

describe("checkSharedLimitValues", () => {
  it("accepts absent and null limits as none, and valid numbers", () => {
    expect(checkSharedLimitValues({}, "here")).toEqual({ maxCallsPerHour: null, maxCostUsd: null });
    expect(checkSharedLimitValues({ maxCallsPerHour: 1, maxCostUsd: 0 }, "here")).toEqual({
      maxCallsPerHour: 1,
      maxCostUsd: 0,
    });
  });

  it.each([
    [{ maxCallsPerHour: 0 }, /here: option `maxCallsPerHour` must be an integer ≥ 1.*got 0/],
    [{ maxCallsPerHour: 2.5 }, /`maxCallsPerHour`.*got 2\.5/],
    [{ maxCostUsd: -1 }, /here: option `maxCostUsd` must be a finite amount ≥ 0.*got -1/],
    [{ maxCostUsd: Number.POSITIVE_INFINITY }, /`maxCostUsd`.*got Infinity/],
    [{ maxCallsPerHour: "10" as unknown as number }, /`maxCallsPerHour`.*got 10/],
  ])("rejects %o with a RangeError naming the option", (options, message) => {
    expect(() => checkSharedLimitValues(options, "here")).toThrow(RangeError);
    expect(() => checkSharedLimitValues(options, "here")).toThrow(message);
  });
});

describe("sharedCountersOf", () => {
  it("keeps counters an implementation could have written, and nothing else", () => {
    const good = { windowStart: Date.UTC(2026, 11, 3, 10), callsMade: 4, costUsd: 1.5 };
    expect(sharedCountersOf(good)).toEqual(good);
    expect(sharedCountersOf({ ...good, callsMade: 0, costUsd: 0 })).toEqual({
      ...good,
      callsMade: 0,
      costUsd: 0,
    });
    for (const broken of [
      { ...good, windowStart: Number.NaN },
      { ...good, windowStart: "2026-12-03T10:00:00Z" },
      { ...good, callsMade: -1 },
      { ...good, callsMade: 1.5 },
      { ...good, callsMade: null },
      { ...good, costUsd: -0.01 },
      { ...good, costUsd: Number.POSITIVE_INFINITY },
      { ...good, costUsd: "1" },
    ]) {
      expect(sharedCountersOf(broken)).toBeNull();
    }
  });
});
