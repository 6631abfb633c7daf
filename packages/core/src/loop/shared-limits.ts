/**
 * The fleet's counts as a {@link SharedLimits} implementation answers them: the calls of the
 * current UTC-hour window, the cost spent, and the limits they are held to. Times are epoch
 * milliseconds, by the implementation's clock (a database's, for a fleet on several machines).
 */
export interface SharedLimitsUsage {
  /** Start of the current window: the top of a UTC clock hour. */
  readonly windowStart: number;
  /** When the window resets: `windowStart` plus one hour. */
  readonly resetAt: number;
  /** Calls the fleet made in the window (a call just granted included). */
  readonly callsThisHour: number;
  /** The fleet's hourly call limit; `null`: no limit. */
  readonly maxCallsPerHour: number | null;
  /** Cost the fleet spent in total, in US dollars (never reset by the hour). */
  readonly costUsd: number;
  /** The fleet's cost budget in US dollars; `null`: no budget. */
  readonly maxCostUsd: number | null;
}

/** Who asks, in every call to a {@link SharedLimits}: for an implementation's own records. */
export interface SharedLimitsCaller {
  /** The terminal whose loop asks. */
  readonly terminalId: string;
  /** The run of that loop (`run.id` in its state); `null` before the run has one. */
  readonly runId: string | null;
}

/** {@link SharedLimits.claimCall}'s answer. */
export type CallClaim =
  | {
      /** The call is counted in the window: make it. */
      readonly granted: true;
      /** The counts with this call included. */
      readonly usage: SharedLimitsUsage;
    }
  | {
      /** The window's calls are used up: nothing was counted; claim again after `waitMs`. */
      readonly granted: false;
      readonly refusal: "calls";
      /** The counts as they are (`callsThisHour` ≥ `maxCallsPerHour`). */
      readonly usage: SharedLimitsUsage;
      /** Milliseconds until the window resets, by the implementation's clock. */
      readonly waitMs: number;
    }
  | {
      /** The budget is spent: nothing was counted; the loop stops with `budget_exhausted`. */
      readonly granted: false;
      readonly refusal: "budget";
      /** The counts as they are (`costUsd` ≥ `maxCostUsd`). */
      readonly usage: SharedLimitsUsage;
    };

/** {@link SharedLimits.recordCost}'s request. */
export interface CostRecord extends SharedLimitsCaller {
  /** What a call cost, in US dollars: a finite amount > 0. */
  readonly costUsd: number;
}

/** {@link SharedLimits.releaseCall}'s request: a granted call that was never made. */
export interface CallRelease extends SharedLimitsCaller {
  /** The window the call was counted in: {@link SharedLimitsUsage.windowStart} of its claim. */
  readonly windowStart: number;
}

/** Options of every {@link SharedLimits} method. */
export interface SharedLimitsCallOptions {
  /** Fires when the loop stops: give up promptly (reject, or answer if already done). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Limits that several loops hold together — an hourly call limit and a cost budget kept
 * outside any one loop, so N loops sharing one account never exceed them together (docs/shared-limits.md).
 * Pass one to every loop's `runLoop({ sharedLimits })`; the limit values belong to the
 * implementation (its constructor's options), so loops cannot disagree on them. A loop's own
 * `limits.max_calls_per_hour` and `limits.max_cost_usd` still apply: both hold.
 *
 * Contract:
 * - {@link SharedLimits.claimCall} checks and counts in one atomic step: two loops claiming at
 *   once never both get the last call of a window (a single SQL statement such as
 *   `UPDATE … SET calls = calls + 1 WHERE calls < $limit AND cost < $budget RETURNING …`).
 *   A refusal counts nothing.
 * - The window is the current UTC clock hour by the implementation's clock; a window of an
 *   earlier hour counts as empty.
 * - The budget is checked when a call is claimed; the cost is known only once the call ends, so
 *   calls in flight when the budget is reached may overspend it by their own cost.
 * - A failure throws (any error); the engine retries with backoff and stops with `limits_error`
 *   after a bound, never making a call it could not claim. Counting twice (a claim or a cost
 *   retried after an answer was lost) is safe; counting less is not.
 */
export interface SharedLimits {
  /** A short name for logs and messages (`memory`, `postgres`). */
  readonly name: string;
  /** The version of this interface the implementation implements. */
  readonly specificationVersion: "v1";
  /** Claims one agent call in the current window, atomically, before the call is made. */
  claimCall(caller: SharedLimitsCaller, options?: SharedLimitsCallOptions): Promise<CallClaim>;
  /**
   * Adds a finished call's cost to the fleet's spend (atomically: `cost = cost + $1`), and
   * answers the counts after it.
   */
  recordCost(record: CostRecord, options?: SharedLimitsCallOptions): Promise<SharedLimitsUsage>;
  /**
   * Optional: gives back a granted call that was never made (the loop stopped before its agent
   * ran), when its window is still the current one; a window that has reset is left alone.
   * Without it the call stays counted.
   */
  releaseCall?(release: CallRelease, options?: SharedLimitsCallOptions): Promise<void>;
  /**
   * Optional: the counts now, without claiming anything (for a dry run, a status display).
   */
  readUsage?(options?: SharedLimitsCallOptions): Promise<SharedLimitsUsage>;
}
