import type { Clock } from "@loop/core";
import { isConnectionError } from "./connection-error.js";

/** The pauses between attempts, in milliseconds; the last repeats. */
const pauses = [50, 100, 200, 400, 800, 1000];

/**
 * Runs `work`, and runs it again on a new connection while it fails with a connection error
 * ({@link isConnectionError}), pausing 50 ms, 100 ms… up to 1 s between attempts, until the
 * pauses add up to `withinMs`: a database restart or a dropped connection then costs a pause,
 * not the loop. Any other error, or the last connection error, is thrown.
 *
 * @param work - the work; `retry` is true from the second attempt on, so a statement that
 *   is not idempotent can be written so that running it twice does no harm.
 * @param withinMs - the most time spent pausing; 0 tries once.
 * @param clock - paces the pauses.
 */
export async function withReconnect<Result>(
  work: (retry: boolean) => Promise<Result>,
  withinMs: number,
  clock: Clock,
): Promise<Result> {
  let paused = 0;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await work(attempt > 0);
    } catch (error) {
      const pause = pauses[Math.min(attempt, pauses.length - 1)] ?? 1000;
      if (!isConnectionError(error) || paused + pause > withinMs) throw error;
      paused += pause;
      await clock.sleep(pause);
    }
  }
}
