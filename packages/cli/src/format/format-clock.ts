import { isIsoTimestamp, parseTimestamp } from "@loop/core";

/** How far from now a time may be and still show as a time of day only. */
const SAME_DAY_MS = 12 * 60 * 60 * 1000;

/** The parts of a time a clock shows, two digits each but the year. */
interface ClockParts {
  readonly year: string;
  readonly month: string;
  readonly day: string;
  readonly hour: string;
  readonly minute: string;
  readonly second: string;
}

/** One formatter per zone: making one loads the zone's data, which takes milliseconds. */
const FORMATTERS = new Map<string | undefined, Intl.DateTimeFormat>();

function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  let formatter = FORMATTERS.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      ...(timeZone === undefined ? {} : { timeZone }),
    });
    FORMATTERS.set(timeZone, formatter);
  }
  return formatter;
}

const twoDigits = (value: number) => String(value).padStart(2, "0");

/**
 * The parts of `time` in `timeZone`. UTC is read from the date itself, as `Intl` would give it
 * for years 1 to 9999 (the `Intl` formatter alone costs more than a status report); other zones,
 * and the machine's, through `Intl`.
 */
function clockParts(time: number, timeZone: string | undefined): ClockParts {
  const date = new Date(time);
  const year = date.getUTCFullYear();
  if (timeZone === "UTC" && year >= 1 && year <= 9999) {
    return {
      year: String(year),
      month: twoDigits(date.getUTCMonth() + 1),
      day: twoDigits(date.getUTCDate()),
      hour: twoDigits(date.getUTCHours()),
      minute: twoDigits(date.getUTCMinutes()),
      second: twoDigits(date.getUTCSeconds()),
    };
  }
  const parts = formatterFor(timeZone).formatToParts(time);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((entry) => entry.type === type)?.value ?? "";
  return {
    year: part("year"),
    month: part("month"),
    day: part("day"),
    hour: part("hour"),
    minute: part("minute"),
    second: part("second"),
  };
}

/**
 * A time as people read it on a dashboard: `10:15:03` when it is within 12 hours of `now`,
 * `2026-03-14 10:15` otherwise.
 *
 * @param time - the time, epoch milliseconds.
 * @param now - the current time, epoch milliseconds.
 * @param timeZone - an IANA time zone (`UTC`, `Europe/Paris`); the machine's zone when absent.
 */
export function formatClock(time: number, now: number, timeZone?: string | undefined): string {
  const part = clockParts(time, timeZone);
  const clock = `${part.hour}:${part.minute}:${part.second}`;
  if (Math.abs(now - time) < SAME_DAY_MS) return clock;
  return `${part.year}-${part.month}-${part.day} ${clock.slice(0, 5)}`;
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
