import { LoopError } from "@loop/core";
import type { IterationLogFile } from "@loop/fs";

/** Which log `loop logs` shows. */
export interface LogSelection {
  /** `--iteration <n>`: that iteration's log. */
  readonly iteration?: number | undefined;
  /** `--task <id>`: the logs of that task (case-insensitive). */
  readonly task?: string | undefined;
}

/** Where the logs were looked for, for messages. */
export interface LogPlace {
  /** The terminal whose logs these are. */
  readonly terminalId: string;
  /** Its folder, as shown to the user. */
  readonly folder: string;
  /** Other terminals of the project that have logs. */
  readonly otherTerminals: readonly string[];
}

/** Iteration numbers as ranges: `1-5, 8, 40-41`. */
export function iterationRanges(iterations: readonly number[]): string {
  const sorted = [...new Set(iterations)].sort((a, b) => a - b);
  const ranges: string[] = [];
  let start = sorted[0];
  let end = start;
  for (const next of [...sorted.slice(1), undefined]) {
    if (next !== undefined && end !== undefined && next === end + 1) {
      end = next;
      continue;
    }
    if (start !== undefined) ranges.push(start === end ? `${start}` : `${start}-${end}`);
    start = next;
    end = next;
  }
  return ranges.join(", ");
}

/** The logs of `task`, when one is given. */
export function logsOfTask(
  logs: readonly IterationLogFile[],
  task: string | undefined,
): IterationLogFile[] {
  if (task === undefined) return [...logs];
  const wanted = task.toLowerCase();
  return logs.filter((log) => log.taskId?.toLowerCase() === wanted);
}

/** The error for a terminal without logs: where they were looked for, and what to do. */
export function noLogsError(place: LogPlace): LoopError {
  const others =
    place.otherTerminals.length === 0
      ? ""
      : ` Terminals with logs: ${place.otherTerminals.join(", ")} (pick one with --terminal-id).`;
  return new LoopError({
    message: `no iteration logs yet for terminal ${place.terminalId} (in ${place.folder}): \`loop run\` writes one per iteration.${others}`,
  });
}

/**
 * The log to show: the newest, the newest of `--task`, or the one of `--iteration` (the newest,
 * if a count that started again gave two).
 *
 * @param logs - the terminal's logs, oldest first.
 * @param selection - `--iteration` and `--task`.
 * @param place - where they were looked for, for messages.
 * @throws {LoopError} when there is none: no logs yet (run `loop run`), an iteration without a
 *   log (naming those kept) or a task without one (naming the tasks that have some).
 */
export function selectLog(
  logs: readonly IterationLogFile[],
  selection: LogSelection,
  place: LogPlace,
): IterationLogFile {
  if (logs.length === 0) throw noLogsError(place);
  const { iteration, task } = selection;
  const candidates = logsOfTask(logs, task).filter(
    (log) => iteration === undefined || log.iteration === iteration,
  );
  const found = candidates.at(-1);
  if (found !== undefined) return found;
  const kept = `iterations kept: ${iterationRanges(logs.map((log) => log.iteration))}`;
  if (task === undefined) {
    throw new LoopError({
      message: `no log of iteration ${iteration} for terminal ${place.terminalId}; ${kept} (see \`loop logs --list\`).`,
    });
  }
  const tasks = [...new Set(logs.flatMap((log) => (log.taskId === null ? [] : [log.taskId])))];
  const which = iteration === undefined ? "" : ` in iteration ${iteration}`;
  throw new LoopError({
    message: `no log of task ${task}${which} for terminal ${place.terminalId}; tasks with logs: ${tasks.join(", ") || "none"}; ${kept}.`,
  });
}
