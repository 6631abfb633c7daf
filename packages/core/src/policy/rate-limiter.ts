const hourMs = 60 * 60 * 1000;

/**
 * The calls made in the current rate-limit window, as kept in the loop state so the limit
 * holds across restarts. Times are milliseconds since the Unix epoch.
 */
export interface RateWindow {
  /** Start of the window the calls were counted in (the top of a UTC clock hour). */
  readonly windowStart: number;
  /** Calls made in that window. */
  readonly callsMade: number;
}

/** The answer of {@link checkRateLimit}. */
export type RateLimitDecision =
  | {
      /** A call may be made now. */
      readonly allowed: true;
      /** The window to count the call in: the stored one, or a fresh one if the hour turned. */
      readonly window: RateWindow;
      /** Calls still allowed in this window, the coming one included. */
      readonly remaining: number;
    }
  | {
      /** The limit is reached: wait until `resetAt`. */
      readonly allowed: false;
      /** The current, full window. */
      readonly window: RateWindow;
      /** When the window resets (the next UTC clock hour), in epoch milliseconds. */
      readonly resetAt: number;
      /** Milliseconds to wait from `now`. */
      readonly waitMs: number;
    };

/**
 * Start of the rate-limit window containing `now`: the top of its UTC clock hour, as
 * ralph_loop.sh resets its call counter when the hour changes. (In time zones with a whole-hour
 * offset from UTC that is also the local hour.)
 */
export function rateWindowStart(now: number): number {
  return Math.floor(now / hourMs) * hourMs;
}

/**
 * Decides whether one more agent call may be made under `limits.max_calls_per_hour`.
 * Pure: pass the stored window (or `null` before the first call) and the current time.
 *
 * A window from an earlier hour is replaced by a fresh, empty one. A window that claims to be
 * from the future (a clock set back) is also replaced, so a wrong clock never blocks the loop
 * for more than an hour.
 *
 * @param window - the stored window, or `null` when no call was made yet.
 * @param now - the current time in epoch milliseconds (from the injected clock).
 * @param maxCallsPerHour - the limit, at least 1.
 * @returns whether a call may be made, and otherwise until when to wait.
 * @example
 * ```ts
 * const decision = checkRateLimit(state.rateWindow, clock.now(), config.limits.max_calls_per_hour);
 * if (!decision.allowed) await clock.sleep(decision.waitMs, signal);
 * ```
 */
export function checkRateLimit(
  window: RateWindow | null,
  now: number,
  maxCallsPerHour: number,
): RateLimitDecision {
  const currentStart = rateWindowStart(now);
  const current: RateWindow =
    window !== null && window.windowStart === currentStart
      ? window
      : { windowStart: currentStart, callsMade: 0 };
  if (current.callsMade < maxCallsPerHour) {
    return { allowed: true, window: current, remaining: maxCallsPerHour - current.callsMade };
  }
  const resetAt = currentStart + hourMs;
  return { allowed: false, window: current, resetAt, waitMs: resetAt - now };
}

/**
 * Counts one call made at `now`: returns the window with the call added (a fresh window when
 * the hour turned since `window` started).
 */
export function recordCall(window: RateWindow | null, now: number): RateWindow {
  const currentStart = rateWindowStart(now);
  const callsMade = window !== null && window.windowStart === currentStart ? window.callsMade : 0;
  return { windowStart: currentStart, callsMade: callsMade + 1 };
}
