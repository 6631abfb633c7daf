/** What an iteration log's file name carries. */
export interface IterationLogName {
  /** When the iteration started, epoch milliseconds (the name keeps whole seconds, UTC). */
  readonly startedAt: number;
  /** The iteration number. */
  readonly iteration: number;
  /** The task's id as the name spells it (unsafe characters as `_`); `null` for a wrap-up. */
  readonly task: string | null;
}

/** The name's part for a wrap-up iteration, which has no task. */
const WRAP_UP = "wrap-up";
/** How much of a task id the name keeps. */
const TASK_LENGTH = 48;
const NAME_PATTERN = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-(\d{6,})-(.+)\.log$/;

/** `2026-03-14T10:00:00.000Z` as `20260314T100000Z`. */
function compactTime(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;
}

/**
 * The file name of an iteration's log: `<start, UTC>-<iteration>-<task>.log`, e.g.
 * `20260314T100000Z-000012-TASK-003.log` (`wrap-up` for a wrap-up iteration). Names sort by
 * start time, so the last is the newest even when a terminal's count starts again at 1 (its
 * state was deleted); the iteration is padded to 6 digits. Characters of the task id outside
 * `A-Z a-z 0-9 . _ -` become `_`, and it is cut to 48 characters: the log's header has it whole.
 *
 * @param name - the start, the iteration and the task (`null` for a wrap-up).
 * @returns the file name.
 */
export function iterationLogName(name: IterationLogName): string {
  const task =
    name.task === null ? WRAP_UP : name.task.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, TASK_LENGTH);
  const iteration = String(name.iteration).padStart(6, "0");
  return `${compactTime(name.startedAt)}-${iteration}-${task || "_"}.log`;
}

/**
 * Reads a name written by {@link iterationLogName}.
 *
 * @param fileName - a directory entry.
 * @returns what it carries, or `null` when it is not an iteration log's name.
 */
export function parseIterationLogName(fileName: string): IterationLogName | null {
  const match = NAME_PATTERN.exec(fileName);
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, iteration, task] = match;
  const startedAt = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
  if (Number.isNaN(startedAt)) return null;
  return {
    startedAt,
    iteration: Number(iteration),
    task: task === WRAP_UP ? null : (task ?? null),
  };
}
