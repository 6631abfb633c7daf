import type { LoopState } from "@loop/core";

/** What {@link forgetTask} did. */
export interface ForgottenTask {
  /** The state with the task no longer given up, its attempts at 0. */
  readonly state: LoopState;
  /** Whether the task was given up (in `failed_tasks`). */
  readonly wasGivenUp: boolean;
  /** The attempts it had used (`task_attempts`). */
  readonly attempts: number;
}

/**
 * A terminal's state with one task's given-up status and attempts forgotten, so the loop runs
 * it again with `tasks.max_attempts` attempts: what `loop reset --failed` does for every task,
 * for one. Nothing else changes but `loop_metadata.last_update`. Pure.
 *
 * @param state - the state as stored.
 * @param taskId - the task.
 * @param now - the current time, ISO 8601.
 */
export function forgetTask(state: LoopState, taskId: string, now: string): ForgottenTask {
  const { [taskId]: attempts, ...otherAttempts } = state.task_attempts ?? {};
  return {
    state: {
      ...state,
      failed_tasks: state.failed_tasks.filter((id) => id !== taskId),
      ...(state.task_attempts === undefined ? {} : { task_attempts: otherAttempts }),
      loop_metadata: { ...state.loop_metadata, last_update: now },
    },
    wasGivenUp: state.failed_tasks.includes(taskId),
    attempts: attempts ?? 0,
  };
}
