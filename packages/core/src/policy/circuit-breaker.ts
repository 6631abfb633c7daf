/**
 * The three states of the circuit breaker, as in Ralph for Claude Code:
 * - `CLOSED` — normal operation;
 * - `HALF_OPEN` — degraded: a streak of iterations without progress, with the same error, or
 *   with permission denials has reached half its threshold (or the breaker is trying again after
 *   its cooldown); one iteration with progress closes it;
 * - `OPEN` — tripped: the loop stops with `circuit_open`; after `cooldown_minutes` the next
 *   run may try again in `HALF_OPEN`.
 */
export type CircuitState = "CLOSED" | "HALF_OPEN" | "OPEN";

/** Why the breaker opened. */
export type CircuitTrip = "no_progress" | "same_error" | "permission_denials";

/**
 * The breaker's complete state: plain, serialisable data kept in the loop state, so an open
 * circuit stays open across restarts and streaks survive a crash.
 */
export interface CircuitBreakerState {
  /** The current state. */
  readonly state: CircuitState;
  /** Iterations in a row with no progress (no task completed, no file changed). */
  readonly noProgressStreak: number;
  /** Iterations in a row that ended on the same error fingerprint. */
  readonly sameErrorStreak: number;
  /** The error fingerprint of the last iteration, `null` when it ended without an error. */
  readonly lastErrorFingerprint: string | null;
  /** Iterations in a row in which the agent was denied a tool. */
  readonly permissionDenialStreak: number;
  /** When the breaker last opened (epoch milliseconds), `null` if it is not open. */
  readonly openedAt: number | null;
  /** Why the breaker last opened, `null` if it is not open. */
  readonly trip: CircuitTrip | null;
  /** How many times the breaker has opened in this loop's life. */
  readonly timesOpened: number;
}

/** What one iteration tells the breaker. */
export interface CircuitObservation {
  /** A task was completed or files changed (commits included). */
  readonly progress: boolean;
  /** The fingerprint of the error the iteration ended on, `null` for none. */
  readonly errorFingerprint: string | null;
  /** The agent was denied at least one tool use. */
  readonly permissionDenied: boolean;
  /**
   * The agent only asked questions. Such an iteration is not "no progress": a headless agent's
   * question is never answered, so the loop tells it to decide and counts these separately
   * (`needs_input`). It neither grows nor resets the no-progress streak.
   */
  readonly questionOnly: boolean;
}

/** The breaker's thresholds, from the config's `circuit_breaker` section. */
export interface CircuitBreakerThresholds {
  /** `circuit_breaker.no_progress_loops`: open after this many iterations without progress. */
  readonly noProgressLoops: number;
  /** `circuit_breaker.same_error_loops`: open after the same error this many times in a row. */
  readonly sameErrorLoops: number;
  /** Open after this many iterations in a row with permission denials. */
  readonly permissionDenialLoops: number;
  /** `circuit_breaker.cooldown_minutes` in milliseconds: how long an open breaker stays open. */
  readonly cooldownMs: number;
}

/** A closed breaker with no history. */
export function initialCircuitBreakerState(): CircuitBreakerState {
  return {
    state: "CLOSED",
    noProgressStreak: 0,
    sameErrorStreak: 0,
    lastErrorFingerprint: null,
    permissionDenialStreak: 0,
    openedAt: null,
    trip: null,
    timesOpened: 0,
  };
}

function nextSameErrorStreak(state: CircuitBreakerState, fingerprint: string | null): number {
  if (fingerprint === null) return 0;
  return fingerprint === state.lastErrorFingerprint ? state.sameErrorStreak + 1 : 1;
}

function nextNoProgressStreak(state: CircuitBreakerState, observation: CircuitObservation): number {
  if (observation.progress) return 0;
  if (observation.questionOnly && observation.errorFingerprint === null) {
    return state.noProgressStreak;
  }
  return state.noProgressStreak + 1;
}

function tripOf(
  streaks: Pick<
    CircuitBreakerState,
    "noProgressStreak" | "sameErrorStreak" | "permissionDenialStreak"
  >,
  thresholds: CircuitBreakerThresholds,
): CircuitTrip | null {
  if (streaks.sameErrorStreak >= thresholds.sameErrorLoops) return "same_error";
  if (streaks.noProgressStreak >= thresholds.noProgressLoops) return "no_progress";
  if (streaks.permissionDenialStreak >= thresholds.permissionDenialLoops) {
    return "permission_denials";
  }
  return null;
}

function degraded(
  streaks: Pick<
    CircuitBreakerState,
    "noProgressStreak" | "sameErrorStreak" | "permissionDenialStreak"
  >,
  thresholds: CircuitBreakerThresholds,
): boolean {
  const half = (threshold: number) => Math.ceil(threshold / 2);
  return (
    streaks.noProgressStreak >= half(thresholds.noProgressLoops) ||
    streaks.sameErrorStreak >= half(thresholds.sameErrorLoops) ||
    streaks.permissionDenialStreak >= half(thresholds.permissionDenialLoops)
  );
}

/**
 * Feeds one iteration to the breaker and returns its next state (pure; the input is not
 * changed).
 *
 * - Progress resets the no-progress streak; an iteration without progress grows it, except a
 *   question-only iteration without an error, which leaves it as it is.
 * - The same error fingerprint as the previous iteration grows the same-error streak; another
 *   error restarts it at 1; no error resets it.
 * - A permission denial grows the denial streak; an iteration without one resets it.
 * - When a streak reaches its threshold the breaker is `OPEN` (so with `no_progress_loops: 5`
 *   it opens on exactly the fifth iteration in a row without progress); when one reaches half
 *   its threshold (rounded up) it is `HALF_OPEN`; otherwise `CLOSED`.
 * - After a cooldown the streaks are kept, so in the trial iteration one more failure reopens
 *   the breaker at once, while progress closes it (and a question-only trial leaves it
 *   `HALF_OPEN`).
 *
 * @param state - the current state.
 * @param observation - what the iteration did.
 * @param thresholds - the config's thresholds.
 * @param now - the time of the observation, in epoch milliseconds.
 */
export function observeIteration(
  state: CircuitBreakerState,
  observation: CircuitObservation,
  thresholds: CircuitBreakerThresholds,
  now: number,
): CircuitBreakerState {
  const streaks = {
    noProgressStreak: nextNoProgressStreak(state, observation),
    sameErrorStreak: nextSameErrorStreak(state, observation.errorFingerprint),
    permissionDenialStreak: observation.permissionDenied ? state.permissionDenialStreak + 1 : 0,
  };
  const common = { ...streaks, lastErrorFingerprint: observation.errorFingerprint };
  // A streak trips the breaker only when this iteration grew it: a question-only iteration in
  // the trial after a cooldown leaves the no-progress streak where it was, and stays neutral.
  const grown = {
    noProgressStreak:
      streaks.noProgressStreak > state.noProgressStreak ? streaks.noProgressStreak : 0,
    sameErrorStreak: streaks.sameErrorStreak,
    permissionDenialStreak: streaks.permissionDenialStreak,
  };
  const trip = tripOf(grown, thresholds);
  if (trip !== null) {
    return {
      ...common,
      state: "OPEN",
      openedAt: now,
      trip,
      timesOpened: state.timesOpened + 1,
    };
  }
  return {
    ...common,
    state: degraded(streaks, thresholds) ? "HALF_OPEN" : "CLOSED",
    openedAt: null,
    trip: null,
    timesOpened: state.timesOpened,
  };
}

/** The answer of {@link checkCircuit}. */
export interface CircuitCheck {
  /** Whether the loop may run an iteration now. */
  readonly canRun: boolean;
  /** The breaker's state at `now` (an open breaker whose cooldown passed is `HALF_OPEN`). */
  readonly breaker: CircuitBreakerState;
  /** When an open breaker allows a new try, in epoch milliseconds; `null` unless it is open. */
  readonly retryAt: number | null;
}

/**
 * Whether the loop may run an iteration at `now`. An `OPEN` breaker refuses until
 * `cooldownMs` after it opened; then it becomes `HALF_OPEN` for a trial iteration (with its
 * streaks kept, so a failing trial reopens it at once).
 */
export function checkCircuit(
  state: CircuitBreakerState,
  now: number,
  thresholds: Pick<CircuitBreakerThresholds, "cooldownMs">,
): CircuitCheck {
  if (state.state !== "OPEN") return { canRun: true, breaker: state, retryAt: null };
  const retryAt = (state.openedAt ?? now) + thresholds.cooldownMs;
  if (now < retryAt) return { canRun: false, breaker: state, retryAt };
  return {
    canRun: true,
    breaker: { ...state, state: "HALF_OPEN", openedAt: null, trip: null },
    retryAt: null,
  };
}
