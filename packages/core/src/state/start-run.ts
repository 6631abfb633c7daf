import { initialStopCounters } from "../policy/stop-counters.js";
import type { LoopState } from "./loop-state.js";
import { fromStopCounters } from "./persisted-stop-counters.js";

/** Options of {@link startRun}. */
export interface StartRunOptions {
  /** Identifier of the new run, from the engine's id generator. */
  readonly runId: string;
  /** The current time as an ISO 8601 timestamp, from the injected clock. */
  readonly now: string;
}

/**
 * The state at the start of a new run (a new invocation of the loop, after a clean exit or a
 * crash): what a previous run leaves behind that must not end or steer the new one is reset,
 * and what the loop needs to resume is kept. Pure: returns a new state, `state` is unchanged.
 *
 * Reset (per run):
 * - `stop_counters` → all zero: a previous run's test-only, done-signal and question streaks
 *   must not end the new run at once (ralph_loop.sh's stale `.exit_signals`);
 * - `completion_indicators` → 0: indicators earned before must not let the new run pass the
 *   exit gate before it did any work;
 * - `run` → a new record: `run_id`, `started_at: now`, `status: "running"`, `exit_reason:
 *   null` (the previous run's exit reason is gone), and `iterations_at_start` /
 *   `cost_usd_at_start` from the totals, so per-run limits can be counted;
 * - `loop_metadata.last_update` → `now`.
 *
 * Kept (resume): `loop_metadata.iterations`, `plan_path` and `started_at`, `completed_tasks`,
 * `failed_tasks`, `task_attempts`, `current_task_id`, `cost_usd`, `session_id`,
 * `circuit_breaker` (an open breaker stays open until its cooldown), `rate_window` (the hourly
 * limit holds across restarts), and every unknown field.
 *
 * Read `state.run` before calling it: a `status` of `running` there means the previous run did
 * not exit cleanly.
 *
 * @param state - the state read at start.
 * @param options - the new run's id and the current time.
 * @returns the state to write before the first iteration.
 */
export function startRun(state: LoopState, options: StartRunOptions): LoopState {
  return {
    ...state,
    completion_indicators: 0,
    stop_counters: fromStopCounters(initialStopCounters()),
    loop_metadata: { ...state.loop_metadata, last_update: options.now },
    run: {
      run_id: options.runId,
      started_at: options.now,
      status: "running",
      exit_reason: null,
      iterations_at_start: state.loop_metadata.iterations,
      cost_usd_at_start: state.cost_usd ?? 0,
    },
  };
}
