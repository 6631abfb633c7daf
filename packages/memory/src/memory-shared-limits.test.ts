import { describe, expect, it } from "vitest";
import { createMemorySharedLimits } from "./memory-shared-limits.js";
import { createTestClock } from "./test-clock.js";

const start = new Date("2026-03-14T10:30:00.000Z");
const caller = (terminalId: string) => ({ terminalId, runId: null });

describe("createMemorySharedLimits", () => {
  it("grants exactly the hourly limit to many claims made at once", async () => {
    const clock = createTestClock({ start });
    const limits = createMemorySharedLimits({ maxCallsPerHour: 7, clock });
    const claims = await Promise.all(
      Array.from({ length: 50 }, (_, index) => limits.claimCall(caller(`t${index % 5}`))),
    );
    expect(claims.filter((claim) => claim.granted)).toHaveLength(7);
    expect(limits.counters?.callsMade).toBe(7);
    const refused = claims.find((claim) => !claim.granted);
    expect(refused).toMatchObject({ refusal: "calls", waitMs: 30 * 60_000 });
  });

  it("resets the calls at the next UTC hour by its clock, keeps the spend, and refuses with budget once spent", async () => {
    const clock = createTestClock({ start });
    const limits = createMemorySharedLimits({ maxCallsPerHour: 1, maxCostUsd: 1, clock });
    expect((await limits.claimCall(caller("a"))).granted).toBe(true);
    expect((await limits.claimCall(caller("b"))).granted).toBe(false);
    const usage = await limits.recordCost({ ...caller("a"), costUsd: 0.75 });
    expect(usage).toMatchObject({ callsThisHour: 1, costUsd: 0.75, maxCostUsd: 1 });
    clock.advance(30 * 60_000);
    expect((await limits.claimCall(caller("b"))).granted).toBe(true);
    await limits.recordCost({ ...caller("b"), costUsd: 0.25 });
    clock.advance(60 * 60_000);
    expect(await limits.claimCall(caller("a"))).toMatchObject({
      granted: false,
      refusal: "budget",
      usage: { costUsd: 1, callsThisHour: 0 },
    });
  });

  it("gives back a released call in its window, and reads the counts without claiming", async () => {
    const clock = createTestClock({ start });
    const limits = createMemorySharedLimits({ maxCallsPerHour: 1, clock });
    const claim = await limits.claimCall(caller("a"));
    await limits.releaseCall({ ...caller("a"), windowStart: claim.usage.windowStart });
    expect((await limits.readUsage()).callsThisHour).toBe(0);
    expect((await limits.readUsage()).callsThisHour).toBe(0);
    expect((await limits.claimCall(caller("b"))).granted).toBe(true);
    expect(limits.calls.map((call) => [call.method, call.caller.terminalId])).toEqual([
      ["claimCall", "a"],
      ["releaseCall", "a"],
      ["claimCall", "b"],
    ]);
  });

  it("rejects a cost that is not a finite amount > 0, counting nothing", async () => {
    const limits = createMemorySharedLimits({ clock: createTestClock({ start }) });
    for (const costUsd of [0, -1, Number.NaN]) {
      await expect(limits.recordCost({ ...caller("a"), costUsd })).rejects.toThrow(
        /costUsd must be a finite amount > 0/,
      );
    }
    expect(limits.counters).toBeNull();
  });

  it("checks its options first", () => {
    expect(() => createMemorySharedLimits({ maxCallsPerHour: 0 })).toThrow(
      "createMemorySharedLimits: option `maxCallsPerHour` must be an integer ≥ 1 (or null for no limit), got 0",
    );
    expect(() => createMemorySharedLimits({ maxCostUsd: -5 })).toThrow(RangeError);
    expect(createMemorySharedLimits().specificationVersion).toBe("v1");
  });
});
