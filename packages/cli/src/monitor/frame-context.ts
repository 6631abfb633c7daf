import { formatClock } from "../format/format-clock.js";
import type { LoopSnapshot } from "../loop-snapshot.js";
import type { Style } from "../style.js";

/** What every part of a monitor frame is drawn from. */
export interface FrameContext {
  /** The loop as read. */
  readonly snapshot: LoopSnapshot;
  /** The current time, epoch milliseconds. */
  readonly now: number;
  /** The columns available; `Infinity` for no limit. */
  readonly width: number;
  /** Colours, or plain text. */
  readonly style: Style;
  /** The IANA time zone times are shown in, and labelled with (`UTC`). */
  readonly timeZone: string;
}

/**
 * A time as the monitor shows it: in the frame's one zone, labelled with it, `10:15:03 UTC`.
 *
 * @param context - the frame, for its zone and the current time.
 * @param time - the time, epoch milliseconds.
 */
export function clockText(context: FrameContext, time: number): string {
  return `${formatClock(time, context.now, context.timeZone)} ${context.timeZone}`;
}

/** Width of the labels in front of the dashboard's lines (`Tasks`, `Current`…). */
export const LABEL_WIDTH = 9;

/** `text` padded to {@link LABEL_WIDTH} and dimmed: the label in front of a line. */
export function label(context: FrameContext, text: string): string {
  return context.style.dim(text.padEnd(LABEL_WIDTH));
}
