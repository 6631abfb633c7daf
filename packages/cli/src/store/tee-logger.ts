import type { ClosableLogger } from "./project-backend.js";

/**
 * One logger that logs every event to `first` and then to `second`: the loop hears of the
 * failures of `first` (its promise); `second` is best-effort and reports its own (a buffered
 * database logger). `flush` and `close` wait for both; a failure of `second`'s is not the run's.
 *
 * @param first - the logger whose failures the loop reports (the decision log file).
 * @param second - a logger that never throws from `log`.
 */
export function teeLogger(first: ClosableLogger, second: ClosableLogger): ClosableLogger {
  return {
    log(event) {
      second.log(event);
      return first.log(event);
    },
    async flush() {
      await Promise.all([first.flush?.(), second.flush?.().catch(() => undefined)]);
    },
    async close() {
      await Promise.all([first.close(), second.close().catch(() => undefined)]);
    },
  };
}
