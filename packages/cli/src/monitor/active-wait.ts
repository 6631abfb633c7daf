import type { DecisionEvent } from "@loop/core";
import { readTime } from "../format/format-clock.js";
import type { LoopSnapshot } from "../loop-snapshot.js";

/** A wait for a limit that has not ended yet. */
export interface ActiveWait {
  /** What the loop waits for: the hourly call limit, the agent's usage limit, or unknown. */
  readonly kind: "rate limit" | "usage limit" | "limit";
  /** When the wait ends, epoch milliseconds (in the future). */
  readonly until: number;
}

/** Events after which a wait logged before them is over. */
const WAIT_ENDERS: ReadonlySet<DecisionEvent["event"]> = new Set(["iteration_start", "loop_exit"]);

/** The last wait event, unless an iteration started or the loop exited after it. */
function lastWaitEvent(events: readonly DecisionEvent[]): ActiveWait | null {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event === undefined || WAIT_ENDERS.has(event.event)) return null;
    if (event.event === "rate_limit_wait" || event.event === "usage_limit_wait") {
      const until = readTime(event.payload.reset_at);
      if (until === null) return null;
      return { kind: event.event === "rate_limit_wait" ? "rate limit" : "usage limit", until };
    }
  }
  return null;
}

/**
 * The wait going on at `now`, if any: `status.json`'s `wait_until` when it is in the future,
 * else the last `rate_limit_wait` or `usage_limit_wait` event whose `reset_at` is (unless an
 * iteration started or the loop exited after it). Nothing waits once the run has exited.
 *
 * @param snapshot - the loop as read.
 * @param now - the current time, epoch milliseconds.
 */
export function findActiveWait(snapshot: LoopSnapshot, now: number): ActiveWait | null {
  if (snapshot.state?.run?.status === "exited") return null;
  const event = lastWaitEvent(snapshot.events);
  const statusUntil = readTime(snapshot.status?.wait_until);
  if (statusUntil !== null && statusUntil > now) {
    const action = snapshot.status?.last_action ?? "";
    const kind =
      event?.kind ??
      (/usage/i.test(action)
        ? "usage limit"
        : /rate|api_limit/i.test(action)
          ? "rate limit"
          : "limit");
    return { kind, until: statusUntil };
  }
  return event !== null && event.until > now ? event : null;
}
