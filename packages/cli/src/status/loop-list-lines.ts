import { summarizeEvent } from "../format/event-summary.js";
import { oneLine } from "../format/fit-line.js";
import { formatClock, readTime } from "../format/format-clock.js";
import { runLine } from "../format/run-line.js";
import type { Style } from "../style.js";
import type { LoopListRow } from "./loop-list.js";

/** The columns of `loop status --all`, in order. */
const HEADINGS = ["TERMINAL", "PROJECT", "HOST", "STATE", "LAST EVENT (UTC)"] as const;

/** A row's latest event: its time, name and summary; `-` when none is known. */
function lastEventText(row: LoopListRow, now: number): string {
  const event = row.lastEvent;
  if (event === null) return "-";
  const at = readTime(event.timestamp);
  const time = at === null ? event.timestamp : formatClock(at, now, "UTC");
  return oneLine(`${time}  ${event.event} ${summarizeEvent(event)}`.trimEnd());
}

/**
 * `loop status --all` as text: a heading naming the store, then one line per loop — terminal,
 * project, host, state and latest event — in aligned columns (the last one as long as it is).
 *
 * @param rows - the loops, as `readLoopList` reads them.
 * @param where - where they are (the state folder, or the database).
 * @param style - colours.
 * @param now - the current time, epoch milliseconds.
 */
export function loopListLines(
  rows: readonly LoopListRow[],
  where: string,
  style: Style,
  now: number,
): string[] {
  const title = style.bold(
    `loop status --all — ${rows.length} ${rows.length === 1 ? "loop" : "loops"} in ${where}`,
  );
  if (rows.length === 0) return [title, "No loop has state here yet. Start one with `loop run`."];
  const cells = rows.map((row) => [
    row.terminalId,
    row.project ?? "-",
    row.host ?? "-",
    row.state === null && row.problem !== null ? "unreadable" : runLine(row.state, row.lock, false),
    lastEventText(row, now),
  ]);
  const widths = HEADINGS.map((heading, column) =>
    Math.max(heading.length, ...cells.map((line) => line[column]?.length ?? 0)),
  );
  const layout = (line: readonly string[]) =>
    line
      .map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  const out = [title, `  ${layout(HEADINGS)}`, ...cells.map((line) => `  ${layout(line)}`)];
  for (const row of rows) {
    if (row.problem !== null) out.push(style.yellow(`note: ${row.terminalId}: ${row.problem}`));
  }
  return out;
}
