/**
 * Time, injected: the engine reads the time and waits only through a clock, so tests run
 * hour-long rate-limit and usage-limit waits in milliseconds.
 */
export interface Clock {
  /** The current time in epoch milliseconds. */
  now(): number;
  /**
   * Waits `ms` milliseconds. Rejects (or resolves early) when `signal` fires; the engine checks
   * the signal after every wait.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
