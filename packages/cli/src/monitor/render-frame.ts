import { fitLine, oneLine } from "../format/fit-line.js";
import type { LoopSnapshot } from "../loop-snapshot.js";
import type { Style } from "../style.js";
import { eventLines } from "./event-lines.js";
import type { FrameContext } from "./frame-context.js";
import { headerLines } from "./header-lines.js";
import { loopLines } from "./loop-lines.js";

/** Options of {@link renderMonitorFrame}. */
export interface MonitorFrameOptions {
  /** The loop as `readLoopSnapshot` read it. */
  readonly snapshot: LoopSnapshot;
  /** The current time, epoch milliseconds (countdowns and "ago" count from it). */
  readonly now: number;
  /** The terminal's columns; every line is cut to fit. `Infinity`: no limit. */
  readonly width: number;
  /** The terminal's rows; older events are left out to fit. `Infinity`: no limit. */
  readonly height: number;
  /** Colours, or plain text (`createStyle`). */
  readonly style: Style;
  /**
   * The IANA time zone times are shown in, and labelled with; `UTC` when absent, the zone of
   * the state files, the decision log and `status.json`'s `next_reset`.
   */
  readonly timeZone?: string | undefined;
  /** Whether to show the keys (`q quit`) on the last line: for the live dashboard. */
  readonly interactive?: boolean | undefined;
}

/** At most this many of the snapshot's problems are listed. */
const MAXIMUM_PROBLEMS = 3;

function problemLines(context: FrameContext): string[] {
  const { problems } = context.snapshot;
  const shown = problems
    .slice(0, MAXIMUM_PROBLEMS)
    .map((problem) => context.style.yellow(`! ${oneLine(problem)}`));
  const more = problems.length - shown.length;
  return more > 0 ? [...shown, context.style.yellow(`! …and ${more} more`)] : shown;
}

/**
 * One frame of `loop monitor`, as lines of text: the run (terminal, status, iterations,
 * times), the tasks' progress bar, the current task, calls, cost and circuit breaker, the
 * countdown of a wait for a limit, the recent decision events, and any file that could not be
 * read. Pure: the same input gives the same lines, so it is tested without a terminal.
 *
 * Every line is cut to `width` columns; when the frame is taller than `height`, the oldest
 * events are left out first.
 *
 * @param options - the snapshot, the time, the terminal's size and the style.
 * @returns the lines, without line breaks.
 *
 * @example
 * ```ts
 * const lines = renderMonitorFrame({ snapshot, now: Date.now(), width: 80, height: 24, style });
 * process.stdout.write(`${lines.join("\n")}\n`);
 * ```
 */
export function renderMonitorFrame(options: MonitorFrameOptions): string[] {
  const context: FrameContext = {
    snapshot: options.snapshot,
    now: options.now,
    width: options.width,
    style: options.style,
    timeZone: options.timeZone ?? "UTC",
  };
  const top = [...headerLines(context), "", ...loopLines(context), ""];
  const footer = options.interactive
    ? [options.style.dim("q quit · r refresh · updates when the loop's files change")]
    : [];
  const problems = problemLines(context);
  const bottom = [...problems, ...footer];
  const room = options.height - top.length - bottom.length - (bottom.length > 0 ? 1 : 0);
  const events = eventLines(context, room);
  const body = [...top, ...events, ...(events.length > 0 && problems.length > 0 ? [""] : [])];
  // The keys stay on the last row, under a gap, when the height is known.
  const gap = Number.isFinite(options.height)
    ? Math.max(0, options.height - body.length - bottom.length)
    : 0;
  return [...body, ...problems, ...Array<string>(gap).fill(""), ...footer]
    .slice(0, Math.max(0, options.height))
    .map((line) => fitLine(line, options.width));
}
