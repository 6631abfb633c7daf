import type { DecisionEvent } from "./decision-event.js";
import type { Logger } from "./logger.js";

/** Options of {@link bestEffort}. */
export interface BestEffortOptions {
  /**
   * Called once, with the first failure of the logger (a throw or a rejection of `log` or
   * `flush`): print a warning there. Later failures are only counted. If it throws, that is
   * ignored.
   */
  readonly onError: (error: unknown) => void;
}

/** Options of {@link BestEffortLogger.flush}. */
export interface BestEffortFlushOptions {
  /** Stop waiting when it fires (for example `AbortSignal.timeout(5000)`): a logger whose
   * promises never settle cannot hold the loop. */
  readonly signal?: AbortSignal | undefined;
}

/** A {@link Logger} that never throws, never rejects and never makes the loop wait. */
export interface BestEffortLogger extends Logger {
  /** Hands the event to the wrapped logger; returns at once, whatever the logger does. */
  log(event: DecisionEvent): void;
  /**
   * Waits until every `log` promise handed out so far, and the wrapped logger's own `flush`,
   * have settled — or until `options.signal` fires. Never rejects.
   */
  flush(options?: BestEffortFlushOptions | null): Promise<void>;
  /** How many failures there were, the reported first one included. */
  readonly failureCount: number;
}

/** Whether `value` has a `then` method, read without letting a throwing getter escape. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return (
      (typeof value === "object" || typeof value === "function") &&
      value !== null &&
      typeof (value as { then?: unknown }).then === "function"
    );
  } catch {
    return false;
  }
}

/** Resolves when `signal` fires; never when there is none. Returns a cleanup function too. */
function whenAborted(signal: AbortSignal | undefined): {
  readonly promise: Promise<void>;
  readonly dispose: () => void;
} {
  if (signal === undefined) return { promise: new Promise<void>(() => {}), dispose: () => {} };
  let listener = () => {};
  const promise = new Promise<void>((resolve) => {
    listener = () => resolve();
    signal.addEventListener("abort", listener, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener("abort", listener) };
}

/**
 * Wraps a logger so that logging is best-effort, as the seed requires ("I/O errors never
 * break loop execution"):
 *
 * - `log` calls the wrapped `log` and returns at once: it never throws, never rejects, and does
 *   not wait for a returned promise;
 * - the first failure (a synchronous throw or a rejection, of `log` or `flush`) is reported
 *   once through `onError`; later ones are counted in `failureCount`;
 * - `flush` waits for the pending `log` promises and the wrapped `flush`, never rejects, and
 *   stops waiting when its `signal` fires.
 *
 * @param logger - any logger (a JSON-lines file, memory, your own).
 * @param options - where to report the first failure.
 * @returns the wrapped logger.
 * @example
 * ```ts
 * const logger = bestEffort(createJsonlLogger({ path }), {
 *   onError: (error) => console.warn(`decision log disabled: ${String(error)}`),
 * });
 * logger.log(event); // never throws
 * await logger.flush({ signal: AbortSignal.timeout(5000) });
 * ```
 */
export function bestEffort(logger: Logger, options: BestEffortOptions): BestEffortLogger {
  let failureCount = 0;
  const pending = new Set<Promise<void>>();

  const fail = (error: unknown): void => {
    failureCount += 1;
    if (failureCount > 1) return;
    try {
      options.onError(error);
    } catch {
      // The report itself failed: nothing more can be done without breaking the loop.
    }
  };

  const track = (value: unknown): void => {
    if (!isThenable(value)) return;
    const settled = Promise.resolve(value).then(
      () => {},
      (error: unknown) => fail(error),
    );
    pending.add(settled);
    void settled.finally(() => pending.delete(settled));
  };

  const call = (run: () => unknown): void => {
    try {
      track(run());
    } catch (error) {
      fail(error);
    }
  };

  return {
    log(event: DecisionEvent): void {
      call(() => logger.log(event));
    },
    async flush(flushOptions?: BestEffortFlushOptions | null): Promise<void> {
      const signal = flushOptions?.signal;
      if (signal?.aborted === true) return;
      call(() => logger.flush?.());
      const abort = whenAborted(signal);
      try {
        await Promise.race([Promise.all([...pending]), abort.promise]);
      } finally {
        abort.dispose();
      }
    },
    get failureCount(): number {
      return failureCount;
    },
  };
}
