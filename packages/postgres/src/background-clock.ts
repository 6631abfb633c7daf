import type { Clock } from "@loop/core";

/**
 * The clock of the package's background work (lease renewal, logger retries) when none is
 * given: the system time, and timers that do not keep the process alive (`unref`), so a
 * program that forgets to release a lock or close a logger still exits.
 */
export const backgroundClock: Clock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) {
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, Number.isFinite(ms) ? ms : 0));
      timer.unref();
      signal?.addEventListener("abort", done, { once: true });
    }),
});
