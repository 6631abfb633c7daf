import type { WorkerRecord } from "@loop/core";
import { readTime } from "./format-clock.js";
import { formatDuration } from "./format-duration.js";

/**
 * One line per worker of a parallel run, as `loop status` and `loop monitor` show them: the
 * task, how long it has run, its attempt and its branch —
 * `TASK-2  3m 12s  attempt 1  loop/TASK-2`, and `merging` while a merge agent resolves a
 * conflict of its work. Task ids are padded to line up.
 *
 * @param workers - `loop_state.json`'s `workers` (absent: none run).
 * @param now - the current time, epoch milliseconds.
 * @returns the lines, in the order the workers started; none when no worker runs.
 */
export function workerLines(workers: readonly WorkerRecord[] | undefined, now: number): string[] {
  const running = workers ?? [];
  const width = Math.max(0, ...running.map((worker) => worker.task_id.length));
  return running.map((worker) => {
    const started = readTime(worker.started_at);
    const elapsed = started === null ? "?" : formatDuration(now - started);
    const merging = worker.merge_process === undefined ? "" : "  merging";
    return `${worker.task_id.padEnd(width)}  ${elapsed.padStart(7)}  attempt ${worker.attempt}  ${worker.branch}${merging}`;
  });
}
