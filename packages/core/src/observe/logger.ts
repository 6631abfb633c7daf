import type { DecisionEvent } from "./decision-event.js";

/**
 * Receives the loop's decision events (`decision.log`). Logging is best-effort: wrap any logger
 * in `bestEffort` and a logger that throws or rejects is reported once and never breaks or slows
 * the loop.
 */
export interface Logger {
  /** Records one event. May return a promise; the loop does not wait for it. */
  log(event: DecisionEvent): void | Promise<void>;
  /** Waits until every event logged so far is recorded (the loop calls it before it returns). */
  flush?(): Promise<void>;
}
