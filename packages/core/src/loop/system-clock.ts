import type { Clock } from "./clock.js";

/**
 * The host's clock: `Date.now()` and `setTimeout`. The one place in `@loop/core` that touches
 * the host's time, used by `runLoop` only when the caller passes no `clock`; every policy takes
 * the time as plain data. Its `sleep` resolves early, without error, when the signal fires.
 */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) {
        resolve();
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
});
