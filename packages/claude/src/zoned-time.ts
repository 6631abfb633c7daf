/** A wall-clock date and time, as a clock on the wall of some time zone shows it. */
export interface WallClock {
  /** The full year. */
  readonly year: number;
  /** The month, 1 to 12. */
  readonly month: number;
  /** The day of the month, 1 to 31. */
  readonly day: number;
  /** The hour, 0 to 23. */
  readonly hour: number;
  /** The minute, 0 to 59. */
  readonly minute: number;
}

/** Formatters by zone: building one is slow, and a loop asks the same zone again and again. */
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

/** The formatter that reads an instant's wall clock in `timeZone`; throws a RangeError for an unknown zone. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = FORMATTERS.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    FORMATTERS.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * Whether `timeZone` is an IANA zone (or `UTC`) this runtime knows.
 *
 * @param timeZone - a zone name such as `Asia/Tokyo`.
 * @returns `true` when `Intl.DateTimeFormat` accepts it.
 */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The wall clock of `timeZone` at an instant.
 *
 * @param instant - epoch milliseconds.
 * @param timeZone - an IANA zone.
 * @returns the date and time a clock in that zone shows.
 */
export function wallClockAt(instant: number, timeZone: string): WallClock & { second: number } {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? 1970,
    month: fields.month ?? 1,
    day: fields.day ?? 1,
    hour: (fields.hour ?? 0) % 24,
    minute: fields.minute ?? 0,
    second: fields.second ?? 0,
  };
}

/** How far `timeZone` is ahead of UTC at an instant, in milliseconds. */
function zoneOffsetAt(instant: number, timeZone: string): number {
  const clock = wallClockAt(instant, timeZone);
  const asUtc = Date.UTC(
    clock.year,
    clock.month - 1,
    clock.day,
    clock.hour,
    clock.minute,
    clock.second,
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a wall clock in `timeZone` shows `clock`. Days and months out of range roll over
 * (`day: 32` is the next month). In a daylight-saving gap the instant after the gap is given.
 *
 * @param clock - the wall-clock date and time.
 * @param timeZone - an IANA zone.
 * @returns epoch milliseconds.
 */
export function instantOfWallClock(clock: WallClock, timeZone: string): number {
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute);
  let instant = asUtc - zoneOffsetAt(asUtc, timeZone);
  instant = asUtc - zoneOffsetAt(instant, timeZone);
  return instant;
}

/**
 * The next instant, strictly after `now`, when a clock in `timeZone` shows `hour:minute`.
 *
 * @param time - the wall-clock hour (0–23) and minute.
 * @param now - epoch milliseconds.
 * @param timeZone - an IANA zone.
 * @returns epoch milliseconds.
 */
export function nextWallClockTime(
  time: { readonly hour: number; readonly minute: number },
  now: number,
  timeZone: string,
): number {
  const today = wallClockAt(now, timeZone);
  for (let dayOffset = 0; dayOffset <= 2; dayOffset += 1) {
    const candidate = instantOfWallClock(
      { year: today.year, month: today.month, day: today.day + dayOffset, ...time },
      timeZone,
    );
    if (candidate > now) return candidate;
  }
  return instantOfWallClock(
    { year: today.year, month: today.month, day: today.day + 3, ...time },
    timeZone,
  );
}

/**
 * The next instant, strictly after `now`, when a clock in `timeZone` shows the given month, day
 * and time: this year's, else next year's.
 *
 * @param date - the month (1–12), day, hour (0–23) and minute.
 * @param now - epoch milliseconds.
 * @param timeZone - an IANA zone.
 * @returns epoch milliseconds.
 */
export function nextCalendarTime(
  date: Omit<WallClock, "year">,
  now: number,
  timeZone: string,
): number {
  const { year } = wallClockAt(now, timeZone);
  const thisYear = instantOfWallClock({ year, ...date }, timeZone);
  return thisYear > now ? thisYear : instantOfWallClock({ year: year + 1, ...date }, timeZone);
}
