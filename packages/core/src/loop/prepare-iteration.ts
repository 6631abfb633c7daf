import type { LoopConfig } from "../config/loop-config.js";
import { checkCircuit } from "../policy/circuit-breaker.js";
import { selectNextTask, type TaskSelection } from "../policy/task-selection.js";
import type { LoopState } from "../state/loop-state.js";
import {
  fromCircuitBreakerState,
  toCircuitBreakerState,
} from "../state/persisted-circuit-breaker.js";
import { withCompletedFromPlan } from "./loop-state-update.js";
import type { LoopTask, PlanView } from "./plan-view.js";

/** The state an iteration starts from, and what it would run. */
export interface PreparedIteration {
  /** The state with the plan's done tasks and the breaker's cooldown applied. */
  readonly state: LoopState;
  /** The next task, or why none runs. */
  readonly selection: TaskSelection<LoopTask>;
}

/**
 * What happens before an iteration, on plain data: `completed_tasks` follows the plan as it is
 * now, an open circuit breaker whose cooldown has passed goes half-open, and the next task is
 * selected. `runLoop` and `previewIteration` both start an iteration with it.
 */
export function prepareIteration(
  state: LoopState,
  view: PlanView,
  config: LoopConfig,
  now: number,
): PreparedIteration {
  const synced = withCompletedFromPlan(state, view);
  const circuit = checkCircuit(toCircuitBreakerState(synced.circuit_breaker), now, {
    cooldownMs: config.circuit_breaker.cooldown_minutes * 60_000,
  });
  const next: LoopState = { ...synced, circuit_breaker: fromCircuitBreakerState(circuit.breaker) };
  const selection = selectNextTask({
    tasks: view.tasks,
    attempts: next.task_attempts ?? {},
    failedTaskIds: next.failed_tasks,
    maxAttempts: config.tasks.max_attempts,
  });
  return { state: next, selection };
}
