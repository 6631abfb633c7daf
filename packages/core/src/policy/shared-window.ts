import type { CallClaim, SharedLimitsUsage } from "../loop/shared-limits.js";
import { rateWindowStart } from "./rate-limiter.js";

const hourMs = 60 * 60 * 1000;

/**
 * What a `SharedLimits` implementation keeps for the fleet: the calls of one UTC-hour window and
 * the cost spent in total. Pure data, for the functions below (the reference behaviour of every
 * implementation: in memory, in a file, in a database row).
 */
export interface SharedCounters {
  /** Start of the window the calls were counted in: the top of a UTC clock hour (epoch ms). */
  readonly windowStart: number;
  /** Calls counted in that window. */
  readonly callsMade: number;
  /** Cost spent in total, in US dollars. */
  readonly costUsd: number;
}

/**
 * Counters read back from where an implementation keeps them, checked: `windowStart` a finite
 * epoch time, `callsMade` an integer ≥ 0, `costUsd` a finite amount ≥ 0. Anything else is
 * `null` — a count made up from a broken record could let the fleet exceed its limits, so the
 * caller reports it as an error rather than guess.
 *
 * @param stored - the values as read (a file's fields, a row's columns).
 * @example
 * ```ts
 * const counters = sharedCountersOf({ windowStart: Date.parse(file.window_start), callsMade: file.calls_made, costUsd: file.cost_usd });
 * if (counters === null) throw new Error(`${path} is not a counter file`);
 * ```
 */
export function sharedCountersOf(stored: {
  readonly windowStart: unknown;
  readonly callsMade: unknown;
  readonly costUsd: unknown;
}): SharedCounters | null {
  const { windowStart, callsMade, costUsd } = stored;
  if (typeof windowStart !== "number" || !Number.isFinite(windowStart)) return null;
  if (typeof callsMade !== "number" || !Number.isInteger(callsMade) || callsMade < 0) return null;
  if (typeof costUsd !== "number" || !Number.isFinite(costUsd) || costUsd < 0) return null;
  return { windowStart, callsMade, costUsd };
}

/** The limits a fleet is held to (`null`: none). */
export interface SharedLimitValues {
  /** Calls per UTC clock hour: an integer ≥ 1, or `null`. */
  readonly maxCallsPerHour: number | null;
  /** The cost budget in US dollars: a finite amount ≥ 0, or `null`. */
  readonly maxCostUsd: number | null;
}

/** The counters in the window containing `now`: an earlier (or later) window's calls are gone. */
function current(counters: SharedCounters | null, now: number): SharedCounters {
  const windowStart = rateWindowStart(now);
  if (counters === null) return { windowStart, callsMade: 0, costUsd: 0 };
  if (counters.windowStart === windowStart) return counters;
  // A window from another hour (an earlier one, or a later one after a clock set back) holds no
  // call of this one; the spend is not by the hour and stays.
  return { windowStart, callsMade: 0, costUsd: counters.costUsd };
}

/**
 * The fleet's counts at `now`, as `SharedLimits.readUsage` answers them.
 *
 * @param counters - the stored counters, or `null` before the first call.
 * @param now - the implementation's time, epoch milliseconds.
 * @param limits - the limits the fleet is held to.
 */
export function sharedUsage(
  counters: SharedCounters | null,
  now: number,
  limits: SharedLimitValues,
): SharedLimitsUsage {
  const at = current(counters, now);
  return {
    windowStart: at.windowStart,
    resetAt: at.windowStart + hourMs,
    callsThisHour: at.callsMade,
    maxCallsPerHour: limits.maxCallsPerHour,
    costUsd: at.costUsd,
    maxCostUsd: limits.maxCostUsd,
  };
}

/**
 * Claims one call: the budget is checked first (a spent budget stops the loop, however many
 * calls are left this hour), then the hour's calls. A refusal changes nothing. What an
 * implementation must do in one atomic step.
 *
 * @param counters - the stored counters, or `null` before the first call.
 * @param now - the implementation's time, epoch milliseconds.
 * @param limits - the limits the fleet is held to.
 * @returns the counters to store (unchanged on a refusal) and the claim's answer.
 * @example
 * ```ts
 * const { counters, claim } = claimSharedCall(stored, clock.now(), { maxCallsPerHour: 100, maxCostUsd: 50 });
 * stored = counters;
 * if (!claim.granted && claim.refusal === "calls") console.log(`wait ${claim.waitMs} ms`);
 * ```
 */
export function claimSharedCall(
  counters: SharedCounters | null,
  now: number,
  limits: SharedLimitValues,
): { readonly counters: SharedCounters; readonly claim: CallClaim } {
  const at = current(counters, now);
  const usage = sharedUsage(at, now, limits);
  if (limits.maxCostUsd !== null && at.costUsd >= limits.maxCostUsd) {
    return { counters: at, claim: { granted: false, refusal: "budget", usage } };
  }
  if (limits.maxCallsPerHour !== null && at.callsMade >= limits.maxCallsPerHour) {
    return {
      counters: at,
      claim: { granted: false, refusal: "calls", usage, waitMs: usage.resetAt - now },
    };
  }
  const next = { ...at, callsMade: at.callsMade + 1 };
  return { counters: next, claim: { granted: true, usage: sharedUsage(next, now, limits) } };
}

/**
 * Adds a call's cost to the spend.
 *
 * @param counters - the stored counters, or `null` before the first call.
 * @param now - the implementation's time, epoch milliseconds.
 * @param costUsd - the call's cost, a finite amount > 0.
 */
export function recordSharedCost(
  counters: SharedCounters | null,
  now: number,
  costUsd: number,
): SharedCounters {
  const at = current(counters, now);
  return { ...at, costUsd: at.costUsd + costUsd };
}

/**
 * Gives back a granted call that was never made: one call fewer in its window, when that is
 * still the current window and holds a call; otherwise nothing changes (a reset window already
 * forgot it).
 *
 * @param counters - the stored counters.
 * @param now - the implementation's time, epoch milliseconds.
 * @param windowStart - the window the call was claimed in.
 */
export function releaseSharedCall(
  counters: SharedCounters | null,
  now: number,
  windowStart: number,
): SharedCounters {
  const at = current(counters, now);
  if (at.windowStart !== windowStart || at.callsMade === 0) return at;
  return { ...at, callsMade: at.callsMade - 1 };
}

/**
 * The limits an implementation's options give, checked: `maxCallsPerHour` an integer ≥ 1 and
 * `maxCostUsd` a finite amount ≥ 0, each optional (absent or `null`: no such limit).
 *
 * @param options - the implementation's options.
 * @param where - who checks, for the message (`createMemorySharedLimits`).
 * @throws {RangeError} naming the option and what would be valid.
 */
export function checkSharedLimitValues(
  options: {
    readonly maxCallsPerHour?: number | null | undefined;
    readonly maxCostUsd?: number | null | undefined;
  },
  where: string,
): SharedLimitValues {
  const calls = options.maxCallsPerHour ?? null;
  const cost = options.maxCostUsd ?? null;
  if (calls !== null && (typeof calls !== "number" || !Number.isInteger(calls) || calls < 1)) {
    throw new RangeError(
      `${where}: option \`maxCallsPerHour\` must be an integer ≥ 1 (or null for no limit), got ${String(calls)}`,
    );
  }
  if (cost !== null && (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0)) {
    throw new RangeError(
      `${where}: option \`maxCostUsd\` must be a finite amount ≥ 0 in US dollars (or null for no budget), got ${String(cost)}`,
    );
  }
  return { maxCallsPerHour: calls, maxCostUsd: cost };
}
