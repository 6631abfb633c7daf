import type { LoopState } from "../state/loop-state.js";

/** Adds `ids` to a list of ids, keeping order and never repeating one. */
export function withIds(list: readonly string[], ids: readonly string[]): string[] {
  const result = [...list];
  for (const id of ids) if (!result.includes(id)) result.push(id);
  return result;
}

/** The state with the attempts of `taskId` set to `attempts`. */
export function withAttempts(state: LoopState, taskId: string, attempts: number): LoopState {
  return { ...state, task_attempts: { ...(state.task_attempts ?? {}), [taskId]: attempts } };
}
