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

/**
 * How many completed tasks the plan no longer lists stay in `completed_tasks` (the most recent
 * ones): a plan that is worked and pruned (checked tasks deleted, new ones appended) keeps a
 * state of bounded size, rewritten each iteration.
 */
export const KEPT_DELETED_COMPLETIONS = 100;

/**
 * The state with `completed_tasks` as the plan shows them now (an agent may uncheck one): the
 * plan's checked tasks, and the last {@link KEPT_DELETED_COMPLETIONS} completed tasks it no
 * longer lists, in completion order. The attempts of tasks it no longer lists are dropped.
 */
export function withCompletedFromPlan(state: LoopState, view: PlanView): LoopState {
  const done: string[] = [];
  const planIds = new Set<string>();
  for (const task of view.tasks) {
    planIds.add(task.id);
    if (task.done) done.push(task.id);
  }
  const doneIds = new Set(done);
  const deleted = state.completed_tasks.filter((id) => !planIds.has(id));
  const keptDeleted = new Set(deleted.slice(-KEPT_DELETED_COMPLETIONS));
  const next: LoopState = {
    ...state,
    completed_tasks: withIds(
      state.completed_tasks.filter((id) => doneIds.has(id) || keptDeleted.has(id)),
      done,
    ),
  };
  const attempts = state.task_attempts;
  if (attempts === undefined) return next;
  const ids = Object.keys(attempts);
  if (ids.every((id) => planIds.has(id))) return next;
  return {
    ...next,
    task_attempts: Object.fromEntries(
      ids.filter((id) => planIds.has(id)).map((id) => [id, attempts[id] ?? 0]),
    ),
  };
}
