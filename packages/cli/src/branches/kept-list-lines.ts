import { formatUtcClock } from "../format/format-clock.js";
import type { KeptRow } from "./kept-rows.js";

/** The columns of `loop branches`, in order. */
const HEADER = ["branch", "task", "status", "kept (UTC)", "commits", "title"] as const;

/** A row's cells, in {@link HEADER} order. */
function cells(row: KeptRow, now: number): string[] {
  return [
    row.branch,
    row.taskId,
    row.status,
    row.keptAt === null ? "?" : formatUtcClock(row.keptAt, now).replace(/ UTC$/, ""),
    String(row.commits),
    row.title ?? "",
  ];
}

/**
 * The table of `loop branches`: a header, then one line per kept branch — branch, task id,
 * where the task stands, when the work was kept (UTC: a time of day within 12 hours of `now`,
 * else a date and time), its commits beyond the main line, and the task's title — in aligned
 * columns, each line indented by two spaces. Pure.
 *
 * @param rows - the kept branches, oldest first.
 * @param now - the current time, epoch milliseconds.
 * @returns the lines, without line ends; only the header when `rows` is empty.
 */
export function keptListLines(rows: readonly KeptRow[], now: number): string[] {
  const table = [[...HEADER], ...rows.map((row) => cells(row, now))];
  const widths = HEADER.map((_, column) =>
    Math.max(...table.map((line) => line[column]?.length ?? 0)),
  );
  return table.map((line) =>
    `  ${line
      .map((cell, column) => {
        const fill = " ".repeat((widths[column] ?? 0) - cell.length);
        // Numbers align right, words left.
        return HEADER[column] === "commits" ? fill + cell : cell + fill;
      })
      .join("  ")}`.trimEnd(),
  );
}

/**
 * `loop branches --json`: the kept branches as one JSON-ready object, times as ISO 8601.
 *
 * @param rows - the kept branches, oldest first.
 * @param place - the repository and the plan they were read with.
 */
export function keptListJson(
  rows: readonly KeptRow[],
  place: { readonly repository: string; readonly plan: string; readonly terminalId: string },
): {
  readonly repository: string;
  readonly plan: string;
  readonly terminalId: string;
  readonly kept: readonly Record<string, string | number | null>[];
} {
  return {
    ...place,
    kept: rows.map((row) => ({
      branch: row.branch,
      taskId: row.taskId,
      title: row.title,
      status: row.status,
      keptAt: row.keptAt === null ? null : new Date(row.keptAt).toISOString(),
      commits: row.commits,
    })),
  };
}
