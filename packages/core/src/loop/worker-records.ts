import type { LoopState } from "../state/loop-state.js";
import type { WorkerRecord } from "../state/worker-record.js";

/** The state with `record` among its `workers` (in place of the task's earlier record). */
export function withWorker(state: LoopState, record: WorkerRecord): LoopState {
  const others = (state.workers ?? []).filter((worker) => worker.task_id !== record.task_id);
  return { ...state, workers: [...others, record] };
}

/** The state with the task's worker record changed by `update` (the same state without one). */
export function updateWorker(
  state: LoopState,
  taskId: string,
  update: (record: WorkerRecord) => WorkerRecord,
): LoopState {
  const workers = state.workers ?? [];
  if (!workers.some((worker) => worker.task_id === taskId)) return state;
  return {
    ...state,
    workers: workers.map((worker) => (worker.task_id === taskId ? update(worker) : worker)),
  };
}

/** The state without the task's worker record; without `workers` once none is left. */
export function withoutWorker(state: LoopState, taskId: string): LoopState {
  const workers = (state.workers ?? []).filter((worker) => worker.task_id !== taskId);
  return workers.length > 0 ? { ...state, workers } : withoutWorkers(state);
}

/** The state without `workers` (the same state when it has none). */
export function withoutWorkers(state: LoopState): LoopState {
  if (state.workers === undefined) return state;
  const { workers: _none, ...rest } = state;
  return rest as LoopState;
}
