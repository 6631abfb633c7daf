/**
 * A duration for people, to the second under an hour: `45s`, `12m 03s`, `1h 05m`, `2d 03h`.
 * Negative durations show as `0s`; fractions of a second are dropped.
 *
 * @param milliseconds - the duration.
 * @returns the two largest units, the second one padded to two digits.
 *
 * @example
 * ```ts
 * formatDuration(723_000); // "12m 03s"
 * ```
 */
export function formatDuration(milliseconds: number): string {
  const seconds = Number.isFinite(milliseconds) ? Math.max(0, Math.floor(milliseconds / 1000)) : 0;
  const pad = (value: number) => String(value).padStart(2, "0");
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${pad(seconds % 60)}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${pad(minutes % 60)}m`;
  return `${Math.floor(hours / 24)}d ${pad(hours % 24)}h`;
}

/**
 * The time left until `until`, for a countdown: rounded up to the second, so it shows `1s`
 * until the moment has come and never `0s` before it.
 *
 * @param until - the end of the wait, epoch milliseconds.
 * @param now - the current time, epoch milliseconds.
 */
export function formatCountdown(until: number, now: number): string {
  return formatDuration(Math.ceil((until - now) / 1000) * 1000);
}
