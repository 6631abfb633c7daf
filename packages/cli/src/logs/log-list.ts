import type { IterationLogFile } from "@loop/fs";
import { formatClock } from "../format/format-clock.js";
import { formatDuration } from "../format/format-duration.js";
import type { Style } from "../style.js";

/** A log's result in a word: `ok`, `failed`, or `?` when its header does not say. */
function resultOf(log: IterationLogFile, style: Style): string {
  if (log.success === null) return "?";
  return log.success ? style.green("ok") : style.red("failed");
}

/**
 * The lines of `loop logs --list`: a heading naming the terminal and folder, then one row per
 * log, oldest first — iteration, task, start time, duration, result, cost and file name — in
 * aligned columns.
 *
 * @param logs - the logs, oldest first.
 * @param heading - the first line.
 * @param style - colours.
 * @param now - the current time, for the start times (a time of day when within 12 hours).
 */
export function logListLines(
  logs: readonly IterationLogFile[],
  heading: string,
  style: Style,
  now: number,
): string[] {
  const rows = logs.map((log) => [
    String(log.iteration),
    log.taskId ?? "(wrap-up)",
    formatClock(log.startedAt, now),
    log.endedAt === null ? "?" : formatDuration(log.endedAt - log.startedAt),
    log.success === null ? "?" : log.success ? "ok" : "failed",
    log.costUsd === null ? "" : `$${log.costUsd.toFixed(2)}`,
    log.name,
  ]);
  const header = ["iteration", "task", "started", "took", "result", "cost", "file"];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  /** A row in columns; `shown` styles a cell (colours take no width). */
  const line = (cells: readonly string[], shown: (cell: string, column: number) => string) =>
    `  ${cells
      .map((cell, column) => {
        const fill = " ".repeat((widths[column] ?? 0) - cell.length);
        return column === 0 ? fill + shown(cell, column) : shown(cell, column) + fill;
      })
      .join("  ")
      .trimEnd()}`;
  return [
    style.bold(heading),
    line(header, (cell) => style.dim(cell)),
    ...rows.map((row, index) =>
      line(row, (cell, column) => {
        const log = logs[index];
        return column === 4 && log !== undefined ? resultOf(log, style) : cell;
      }),
    ),
  ];
}
