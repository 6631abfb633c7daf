/**
 * ISO 8601 timestamps as the persisted documents hold them: `2026-03-14T10:00:00Z`,
 * `2026-03-14T10:00:00.123+02:00`, or zone-less `2026-03-14T10:00:00` as the seed's Python
 * loop writes them. Pure: no clock is read.
 */

const timestampPattern =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;

/** The fields of a timestamp that matched {@link timestampPattern}. */
interface TimestampParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
  /** Offset east of UTC in minutes; 0 for `Z` and for zone-less timestamps. */
  readonly offsetMinutes: number;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Offset in minutes of `Z`, `+02:00`, `-0530`; `null` when out of range. */
function offsetOf(zone: string | undefined): number | null {
  if (zone === undefined || zone === "Z") return 0;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith("-") ? -1 : 1) * (hours * 60 + minutes);
}

function timestampParts(text: string): TimestampParts | null {
  const match = timestampPattern.exec(text);
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetMinutes = offsetOf(match[8]);
  const valid =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetMinutes !== null;
  if (!valid) return null;
  const millisecond = Number((match[7] ?? "").padEnd(3, "0").slice(0, 3));
  return { year, month, day, hour, minute, second, millisecond, offsetMinutes };
}

/**
 * Whether `value` is an ISO 8601 timestamp as the state documents accept it: a date and a time
 * to the second (`YYYY-MM-DDTHH:MM:SS`), optional fractions of a second, and an optional zone
 * (`Z`, `+HH:MM` or `+HHMM`). Impossible dates (`2026-02-30`) are refused.
 *
 * @param value - any value.
 * @returns whether it is such a timestamp.
 */
export function isIsoTimestamp(value: unknown): value is string {
  return typeof value === "string" && timestampParts(value) !== null;
}

/**
 * Reads an ISO 8601 timestamp as epoch milliseconds. A zone-less timestamp (as the seed's Python
 * loop writes local times) is read as UTC, so the result never depends on the machine's zone.
 *
 * @param text - a timestamp that {@link isIsoTimestamp} accepts.
 * @returns milliseconds since the Unix epoch.
 * @throws {RangeError} when `text` is not such a timestamp.
 * @example
 * ```ts
 * parseTimestamp("2026-03-14T10:00:00Z"); // 1773482400000
 * parseTimestamp("2026-03-14T10:00:00"); // the same: zone-less is read as UTC
 * ```
 */
export function parseTimestamp(text: string): number {
  const parts = timestampParts(text);
  if (parts === null) {
    throw new RangeError(
      `Expected an ISO 8601 timestamp like 2026-03-14T10:00:00Z, got ${JSON.stringify(text)}`,
    );
  }
  const date = new Date(0);
  date.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  date.setUTCHours(parts.hour, parts.minute, parts.second, parts.millisecond);
  return date.getTime() - parts.offsetMinutes * 60_000;
}

/**
 * Writes epoch milliseconds as an ISO 8601 UTC timestamp, `2026-03-14T10:00:00.000Z`.
 *
 * @param milliseconds - milliseconds since the Unix epoch, from the injected clock.
 * @returns the timestamp.
 * @throws {RangeError} when `milliseconds` is not a finite time in the years 0 to 9999.
 */
export function formatTimestamp(milliseconds: number): string {
  const date = new Date(milliseconds);
  const text = Number.isNaN(date.getTime()) ? "" : date.toISOString();
  if (!isIsoTimestamp(text)) {
    throw new RangeError(
      `Expected a time in epoch milliseconds from year 0 to 9999, got ${milliseconds}`,
    );
  }
  return text;
}
