/** The longest duration option: 24 hours. */
const longestMs = 24 * 60 * 60 * 1000;

/**
 * Checks a duration option in milliseconds: a finite number above 0, at most 24 hours.
 *
 * @returns the value, or `undefined` when not given (`undefined` or `null`).
 * @throws {TypeError} naming the option and what would be valid.
 */
export function checkDuration(value: unknown, name: string, caller: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > longestMs) {
    throw new TypeError(
      `${caller}: option \`${name}\` must be a number of milliseconds above 0 and at most ${longestMs} (24 hours), got ${String(value)}`,
    );
  }
  return value;
}
