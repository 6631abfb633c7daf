import type { Clock } from "./clock.js";

/**
 * The longest delay one host timer takes: Node and browsers fire a longer `setTimeout` at once
 * (Node warns `TimeoutOverflowWarning` and uses 1 ms). Longer sleeps are chained timers.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The host's clock: `Date.now()` and `setTimeout`. The one place in `@loop/core` that touches
 * the host's time, used by `runLoop` only when the caller passes no `clock`; every policy takes
 * the time as plain data. Its `sleep` resolves early, without error, when the signal fires, and
 * sleeps the whole time however long it is (a usage limit that resets in a month waits a month,
 * it does not retry at once): delays beyond one host timer's limit are chained.
 */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) {
        resolve();
        return;
      }
      const deadline = Date.now() + Math.max(0, Number.isNaN(ms) ? 0 : ms);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        clearTimeout(timer);
        resolve();
      };
      const wait = () => {
        const left = deadline - Date.now();
        if (left <= 0) {
          signal?.removeEventListener("abort", onAbort);
          resolve();
          return;
        }
        timer = setTimeout(wait, Math.min(left, LONGEST_TIMER_MS));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      timer = setTimeout(wait, Math.min(Math.max(0, deadline - Date.now()), LONGEST_TIMER_MS));
    }),
});
