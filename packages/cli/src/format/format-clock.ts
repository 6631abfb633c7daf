import { isIsoTimestamp, parseTimestamp } from "@loop/core";

/** How far from now a time may be and still show as a time of day only. */
const SAME_DAY_MS = 12 * 60 * 60 * 1000;

/**
 * A time as people read it on a dashboard: `10:15:03` when it is within 12 hours of `now`,
 * `2026-03-14 10:15` otherwise.
 *
 * @param time - the time, epoch milliseconds.
 * @param now - the current time, epoch milliseconds.
 * @param timeZone - an IANA time zone (`UTC`, `Europe/Paris`); the machine's zone when absent.
 */
export function formatClock(time: number, now: number, timeZone?: string | undefined): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    ...(timeZone === undefined ? {} : { timeZone }),
  }).formatToParts(time);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((entry) => entry.type === type)?.value ?? "";
  const clock = `${part("hour")}:${part("minute")}:${part("second")}`;
  if (Math.abs(now - time) < SAME_DAY_MS) return clock;
  return `${part("year")}-${part("month")}-${part("day")} ${clock.slice(0, 5)}`;
}

/**
 * A time in UTC, labelled, as every line of the CLI shows times: `09:31:00 UTC` within 12 hours
 * of `now`, `2026-03-14 09:31 UTC` otherwise. One zone everywhere, so a reset time and the time
 * of the event beside it never disagree.
 *
 * @param time - the time, epoch milliseconds.
 * @param now - the current time, epoch milliseconds.
 */
export function formatUtcClock(time: number, now: number): string {
  return `${formatClock(time, now, "UTC")} UTC`;
}

/**
 * An ISO 8601 timestamp from a state file or an event, as epoch milliseconds; `null` when it
 * is not one. A zone-less timestamp is read as UTC, as `@loop/core` reads them.
 */
export function readTime(text: string | null | undefined): number | null {
  if (typeof text !== "string") return null;
  if (isIsoTimestamp(text)) return parseTimestamp(text);
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : parsed;
}
