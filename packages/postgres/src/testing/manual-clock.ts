import type { Clock } from "@loop/core";

/** A `Clock` whose sleeps end only when the test says: {@link ManualClock.wake}. */
export interface ManualClock extends Clock {
  /** Ends every sleep waiting now. */
  wake(): void;
  /** Resolves once at least `count` sleeps have been asked for since the clock was made. */
  sleepsAsked(count: number): Promise<void>;
  /** How many sleeps have been asked for. */
  readonly asked: number;
}

/**
 * A clock for the renewal and retry loops: time stands still, and each sleep waits for
 * `wake()` (or its signal). So a test decides exactly when a lease is renewed.
 */
export function createManualClock(): ManualClock {
  let asked = 0;
  let waiting: (() => void)[] = [];
  let watchers: { readonly count: number; readonly resolve: () => void }[] = [];
  const notify = () => {
    const ready = watchers.filter((watcher) => asked >= watcher.count);
    watchers = watchers.filter((watcher) => asked < watcher.count);
    for (const watcher of ready) watcher.resolve();
  };
  return {
    now: () => Date.UTC(2026, 0, 1),
    sleep(_ms: number, signal?: AbortSignal) {
      asked += 1;
      notify();
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        waiting.push(resolve);
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
    },
    wake() {
      const woken = waiting;
      waiting = [];
      for (const resolve of woken) resolve();
    },
    sleepsAsked(count: number) {
      if (asked >= count) return Promise.resolve();
      return new Promise<void>((resolve) => watchers.push({ count, resolve }));
    },
    get asked() {
      return asked;
    },
  };
}
