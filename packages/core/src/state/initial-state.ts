import { initialCircuitBreakerState } from "../policy/circuit-breaker.js";
import { initialStopCounters } from "../policy/stop-counters.js";
import { type LoopState, LoopStateSchema } from "./loop-state.js";
import { fromCircuitBreakerState } from "./persisted-circuit-breaker.js";
import { fromStopCounters } from "./persisted-stop-counters.js";
import { schemaDiagnostics } from "./schema-diagnostics.js";
import { StateValidationError } from "./state-validation-error.js";

/** Options of {@link createInitialState}. */
export interface InitialStateOptions {
  /** Path of the plan (`loop_metadata.plan_path`); empty for a plan without a path. */
  readonly planPath: string;
  /** The current time as an ISO 8601 timestamp, from the injected clock. */
  readonly now: string;
}

/**
 * The state of a loop that has not run yet: no task, nothing completed or failed, no
 * indicators, zero iterations, `started_at` and `last_update` at `now`, and the engine's
 * sections at their starting values (no attempts, no cost, no session, a closed breaker,
 * zeroed stop counters, no rate window). It has no `run` yet: `startRun` adds it.
 *
 * @param options - the plan's path and the current time.
 * @returns a valid `loop_state` document.
 * @throws {StateValidationError} when `now` is not an ISO 8601 timestamp.
 */
export function createInitialState(options: InitialStateOptions): LoopState {
  const state = {
    schema_version: 1,
    current_task_id: null,
    completed_tasks: [],
    failed_tasks: [],
    completion_indicators: 0,
    loop_metadata: {
      plan_path: options.planPath,
      started_at: options.now,
      last_update: options.now,
      iterations: 0,
    },
    task_attempts: {},
    circuit_breaker: fromCircuitBreakerState(initialCircuitBreakerState()),
    rate_window: null,
    cost_usd: 0,
    session_id: null,
    stop_counters: fromStopCounters(initialStopCounters()),
  };
  const result = LoopStateSchema.safeParse(state);
  if (!result.success) {
    throw new StateValidationError({ issues: schemaDiagnostics(result.error.issues, state) });
  }
  return result.data;
}
