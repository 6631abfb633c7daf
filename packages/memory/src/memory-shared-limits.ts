import {
  type CallClaim,
  type CallRelease,
  type Clock,
  type CostRecord,
  checkSharedLimitValues,
  claimSharedCall,
  recordSharedCost,
  releaseSharedCall,
  type SharedCounters,
  type SharedLimits,
  type SharedLimitsCaller,
  type SharedLimitsUsage,
  sharedUsage,
  systemClock,
} from "@loop/core";

/** Options of {@link createMemorySharedLimits}. */
export interface MemorySharedLimitsOptions {
  /** Agent calls the loops may make together per UTC clock hour: an integer ≥ 1. Default: no limit. */
  readonly maxCallsPerHour?: number | null | undefined;
  /** What the loops may spend together, in US dollars: a finite amount ≥ 0. Default: no budget. */
  readonly maxCostUsd?: number | null | undefined;
  /** The time the window is kept by; default the system clock. Tests pass the loops' test clock. */
  readonly clock?: Clock | undefined;
}

/** One call the limits answered, as {@link MemorySharedLimits.calls} records it. */
export interface MemorySharedLimitsCall {
  /** Which method. */
  readonly method: "claimCall" | "recordCost" | "releaseCall";
  /** Who asked. */
  readonly caller: SharedLimitsCaller;
  /** For `claimCall`: whether the call was granted. */
  readonly granted?: boolean | undefined;
  /** For `recordCost`: the amount. */
  readonly costUsd?: number | undefined;
}

/** The in-memory `SharedLimits` {@link createMemorySharedLimits} returns. */
export interface MemorySharedLimits extends SharedLimits {
  /** The counters now (`null` before the first call or cost): the window's calls and the spend. */
  readonly counters: SharedCounters | null;
  /** Every call of the loops, oldest first, for assertions. */
  readonly calls: readonly MemorySharedLimitsCall[];
  /** Gives back a call never made (see `SharedLimits.releaseCall`). */
  releaseCall(release: CallRelease): Promise<void>;
  /** The counts now, without claiming. */
  readUsage(): Promise<SharedLimitsUsage>;
}

/**
 * Shared limits in memory: the loops of one process that are given the same object hold its
 * hourly call limit and cost budget together (`runLoop({ sharedLimits })`). Each operation reads
 * and updates the counters without yielding, so it is atomic within the process: two loops
 * claiming at once never both get the last call. It is what `claimSharedCall` and its siblings
 * describe, and the reference behaviour of every other implementation.
 *
 * @example
 * ```ts
 * const clock = createTestClock();
 * const sharedLimits = createMemorySharedLimits({ maxCallsPerHour: 10, maxCostUsd: 5, clock });
 * await Promise.all([
 *   runLoop({ plan: planA, executor, store, clock, terminalId: "a", sharedLimits }),
 *   runLoop({ plan: planB, executor, store, clock, terminalId: "b", sharedLimits }),
 * ]);
 * ```
 *
 * @param options - the limits and the clock.
 * @throws {RangeError} when a limit is not valid (the message says what would be).
 */
export function createMemorySharedLimits(
  options?: MemorySharedLimitsOptions | null,
): MemorySharedLimits {
  const limits = checkSharedLimitValues(options ?? {}, "createMemorySharedLimits");
  const clock = options?.clock ?? systemClock;
  let counters: SharedCounters | null = null;
  const calls: MemorySharedLimitsCall[] = [];
  const caller = (from: SharedLimitsCaller): SharedLimitsCaller => ({
    terminalId: from.terminalId,
    runId: from.runId,
  });
  return {
    name: "memory",
    specificationVersion: "v1",
    get counters() {
      return counters;
    },
    calls,
    async claimCall(from: SharedLimitsCaller): Promise<CallClaim> {
      const claimed = claimSharedCall(counters, clock.now(), limits);
      counters = claimed.counters;
      calls.push({ method: "claimCall", caller: caller(from), granted: claimed.claim.granted });
      return claimed.claim;
    },
    async recordCost(record: CostRecord): Promise<SharedLimitsUsage> {
      const cost = record.costUsd;
      if (typeof cost !== "number" || !Number.isFinite(cost) || cost <= 0) {
        throw new RangeError(
          `MemorySharedLimits.recordCost: costUsd must be a finite amount > 0 in US dollars, got ${String(cost)}`,
        );
      }
      counters = recordSharedCost(counters, clock.now(), cost);
      calls.push({ method: "recordCost", caller: caller(record), costUsd: cost });
      return sharedUsage(counters, clock.now(), limits);
    },
    async releaseCall(release: CallRelease): Promise<void> {
      counters = releaseSharedCall(counters, clock.now(), release.windowStart);
      calls.push({ method: "releaseCall", caller: caller(release) });
    },
    async readUsage(): Promise<SharedLimitsUsage> {
      return sharedUsage(counters, clock.now(), limits);
    },
  };
}
