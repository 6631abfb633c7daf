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

/** What the plan says of a task id, in {@link withCompletedFromPlan}. */
const OPEN = 0;
const DONE = 1;
/** A checked task's id already in the new `completed_tasks`. */
const LISTED = 2;

/**
 * The state with `completed_tasks` as the plan shows them now (an agent may uncheck one): the
 * plan's checked tasks, and the last {@link KEPT_DELETED_COMPLETIONS} completed tasks it no
 * longer lists, in completion order. The attempts of tasks it no longer lists are dropped.
 * One pass over the plan and two over the list, with one map (this runs twice an iteration).
 */
export function withCompletedFromPlan(state: LoopState, view: PlanView): LoopState {
  const plan = new Map<string, number>();
  for (const task of view.tasks) {
    if (task.done) plan.set(task.id, DONE);
    else if (!plan.has(task.id)) plan.set(task.id, OPEN);
  }
  const completed = state.completed_tasks;
  const deleted = completed.filter((id) => !plan.has(id));
  const keptDeleted =
    deleted.length === 0 ? null : new Set(deleted.slice(-KEPT_DELETED_COMPLETIONS));
  const next: string[] = [];
  for (const id of completed) {
    const mark = plan.get(id);
    if (mark === undefined ? keptDeleted?.has(id) === true : mark !== OPEN) {
      next.push(id);
      if (mark === DONE) plan.set(id, LISTED);
    }
  }
  for (const task of view.tasks) {
    if (task.done && plan.get(task.id) === DONE) {
      next.push(task.id);
      plan.set(task.id, LISTED);
    }
  }
  const synced: LoopState = { ...state, completed_tasks: next };
  const attempts = state.task_attempts;
  if (attempts === undefined) return synced;
  const ids = Object.keys(attempts);
  if (ids.every((id) => plan.has(id))) return synced;
  return {
    ...synced,
    task_attempts: Object.fromEntries(
      ids.filter((id) => plan.has(id)).map((id) => [id, attempts[id] ?? 0]),
    ),
  };
}
