import { type CircuitState, initialCircuitBreakerState } from "../policy/circuit-breaker.js";
import { initialStopCounters } from "../policy/stop-counters.js";
import type { LoopState } from "./loop-state.js";
import { fromCircuitBreakerState, toCircuitBreakerState } from "./persisted-circuit-breaker.js";
import { fromStopCounters } from "./persisted-stop-counters.js";

/**
 * The parts of a loop's state {@link resetState} can reset, each a way back from a safety stop:
 * - `breaker` — the circuit breaker closed, its streaks at 0 (`circuit_open`);
 * - `failed` — the given-up tasks forgotten and every task's attempts at 0, so each open task
 *   gets `tasks.max_attempts` again (`no_runnable_tasks`);
 * - `iterations` — the iteration count at 0 (`limits.max_iterations` counts over every run),
 *   with the completion indicators and the stop detectors' streaks;
 * - `session` — the agent's session id forgotten: the next iteration starts a fresh session;
 * - `cost` — the reported cost at $0 (`limits.max_cost_usd` counts over every run). Money spent
 *   stays spent, so it is reset only when asked for by name: it is not in
 *   {@link DEFAULT_RESET_PARTS}.
 */
export const RESET_PARTS = Object.freeze([
  "breaker",
  "failed",
  "iterations",
  "session",
  "cost",
] as const);

/** One of {@link RESET_PARTS}. */
export type ResetPart = (typeof RESET_PARTS)[number];

/** What `loop reset` resets when no part is named (its `--all`): every part but `cost`. */
export const DEFAULT_RESET_PARTS: readonly ResetPart[] = Object.freeze([
  "breaker",
  "failed",
  "iterations",
  "session",
]);

/**
 * The fields {@link resetState} may change, before or after it, snake_case as the state has
 * them (and as the `state_reset` decision event records them).
 */
export interface ResetSnapshot {
  /** The circuit breaker's state. */
  readonly circuit_breaker: CircuitState;
  /** The given-up tasks (`failed_tasks`). */
  readonly failed_tasks: readonly string[];
  /** Attempts made per task (`task_attempts`). */
  readonly task_attempts: Readonly<Record<string, number>>;
  /** Iterations over every run (`loop_metadata.iterations`). */
  readonly iterations: number;
  /** The agent's session id; `null` when none. */
  readonly session_id: string | null;
  /** Cost reported over every run, in US dollars. */
  readonly cost_usd: number;
}

/** Options of {@link resetState}. */
export interface ResetStateOptions {
  /** The parts to reset; repeats are ignored. Usually {@link DEFAULT_RESET_PARTS}. */
  readonly parts: readonly ResetPart[];
  /** The current time as an ISO 8601 timestamp, from the injected clock (`last_update`). */
  readonly now: string;
}

/** What {@link resetState} did. */
export interface StateReset {
  /** The state after the reset. */
  readonly state: LoopState;
  /** The parts reset, each once, in {@link RESET_PARTS} order. */
  readonly parts: readonly ResetPart[];
  /** The fields before the reset. */
  readonly before: ResetSnapshot;
  /** The fields after it. */
  readonly after: ResetSnapshot;
}

/** The fields a reset may change, as `state` has them. */
function snapshotOf(state: LoopState): ResetSnapshot {
  return {
    circuit_breaker: state.circuit_breaker?.state ?? "CLOSED",
    failed_tasks: state.failed_tasks,
    task_attempts: state.task_attempts ?? {},
    iterations: state.loop_metadata.iterations,
    session_id: state.session_id ?? null,
    cost_usd: state.cost_usd ?? 0,
  };
}

type PartReset = (state: LoopState) => LoopState;

const PART_RESETS: Readonly<Record<ResetPart, PartReset>> = {
  breaker: (state) => ({
    ...state,
    // How often it opened is the loop's history, not what keeps it open: it is kept.
    circuit_breaker: fromCircuitBreakerState({
      ...initialCircuitBreakerState(),
      timesOpened: toCircuitBreakerState(state.circuit_breaker).timesOpened,
    }),
  }),
  failed: (state) => ({ ...state, failed_tasks: [], task_attempts: {} }),
  iterations: (state) => ({
    ...state,
    completion_indicators: 0,
    stop_counters: fromStopCounters(initialStopCounters()),
    loop_metadata: { ...state.loop_metadata, iterations: 0 },
    ...(state.run ? { run: { ...state.run, iterations_at_start: 0 } } : {}),
  }),
  session: (state) => ({ ...state, session_id: null }),
  cost: (state) => ({
    ...state,
    cost_usd: 0,
    ...(state.run ? { run: { ...state.run, cost_usd_at_start: 0 } } : {}),
  }),
};

/**
 * A loop's state with the chosen parts reset: the way back from a safety stop that does not
 * lift by itself (an open circuit before its cooldown, used-up iterations, given-up tasks).
 * Pure: returns a new state, `state` is unchanged. See {@link RESET_PARTS} for what each part
 * resets.
 *
 * Never changed: the plan (a reset does not uncheck or check a task), `completed_tasks`,
 * `current_task_id`, the rate window (the hourly call limit lifts by itself), the `run` record
 * (why the last run exited stays readable) but for its per-run baselines, and every unknown
 * field. `loop_metadata.last_update` becomes `now`.
 *
 * @param state - the state as stored.
 * @param options - the parts to reset and the current time.
 * @returns the new state, the parts reset, and the changed fields before and after.
 *
 * @example
 * ```ts
 * const reset = resetState(state, { parts: DEFAULT_RESET_PARTS, now: formatTimestamp(clock.now()) });
 * reset.before.circuit_breaker; // "OPEN"
 * reset.after.circuit_breaker; // "CLOSED"
 * ```
 */
export function resetState(state: LoopState, options: ResetStateOptions): StateReset {
  const parts = RESET_PARTS.filter((part) => options.parts.includes(part));
  let next: LoopState = state;
  for (const part of parts) next = PART_RESETS[part](next);
  next = { ...next, loop_metadata: { ...next.loop_metadata, last_update: options.now } };
  return { state: next, parts, before: snapshotOf(state), after: snapshotOf(next) };
}
