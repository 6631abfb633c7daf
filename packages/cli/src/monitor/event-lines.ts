import type { DecisionEvent } from "@loop/core";
import { summarizeEvent } from "../format/event-summary.js";
import { formatClock, readTime } from "../format/format-clock.js";
import type { Style } from "../style.js";
import type { FrameContext } from "./frame-context.js";

/** Width of the event name column: the longest names (`usage_limit_wait`) fit. */
const EVENT_NAME_WIDTH = 16;

function eventColour(event: DecisionEvent, style: Style): (text: string) => string {
  switch (event.event) {
    case "error":
    case "task_failed":
      return style.red;
    case "rate_limit_wait":
    case "usage_limit_wait":
    case "state_recovered":
    case "lock_takeover":
    case "config_warning":
      return style.yellow;
    case "verification":
      return event.payload.passed ? style.green : style.red;
    case "loop_exit":
      return style.cyan;
    default:
      return (text) => text;
  }
}

/**
 * One decision event as a line of the monitor: its time, its name and a summary of its
 * payload, `10:15:00  iteration_start  #3 TASK-003 of 5 tasks`.
 */
export function eventLine(context: FrameContext, event: DecisionEvent): string {
  const time = readTime(event.timestamp);
  const clock = time === null ? event.timestamp : formatClock(time, context.now, context.timeZone);
  const name = eventColour(event, context.style)(event.event.padEnd(EVENT_NAME_WIDTH));
  return `${context.style.dim(clock)}  ${name}  ${summarizeEvent(event)}`;
}

/**
 * The recent decisions: a title and at most `room - 1` events, the newest ones, oldest first;
 * nothing when there is no room for one event.
 */
export function eventLines(context: FrameContext, room: number): string[] {
  if (room < 2) return [];
  const title = context.style.bold(`Recent decisions (${context.timeZone})`);
  const events = context.snapshot.events;
  if (events.length === 0) return [title, context.style.dim("no decision events yet")];
  return [title, ...events.slice(-(room - 1)).map((event) => eventLine(context, event))];
}
