import type { LoopState } from "../state/loop-state.js";
import type { PlanView } from "./plan-view.js";

/** Adds `ids` to a list of ids, keeping order and never repeating one (linear time). */
export function withIds(list: readonly string[], ids: readonly string[]): string[] {
  const result = [...list];
  const seen = new Set(list);
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    result.push(id);
  }
  return result;
}

/** The state with the attempts of `taskId` set to `attempts`. */
export function withAttempts(state: LoopState, taskId: string, attempts: number): LoopState {
  return { ...state, task_attempts: { ...(state.task_attempts ?? {}), [taskId]: attempts } };
}

/** The state with `completed_tasks` as the plan shows them now (an agent may uncheck one). */
export function withCompletedFromPlan(state: LoopState, view: PlanView): LoopState {
  const done = view.tasks.filter((task) => task.done).map((task) => task.id);
  const doneIds = new Set(done);
  const planIds = new Set(view.tasks.map((task) => task.id));
  return {
    ...state,
    completed_tasks: withIds(
      state.completed_tasks.filter((id) => doneIds.has(id) || !planIds.has(id)),
      done,
    ),
  };
}
