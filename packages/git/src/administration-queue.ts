/** How urgent a worktree administration is. */
export type AdministrationPriority = "now" | "deferred";

/**
 * Runs functions one at a time per key; a `deferred` one starts only when no `now` one is
 * waiting. Within a priority, call order.
 */
export interface AdministrationQueue {
  /** Runs `task` once nothing else of `key` runs and, when `deferred`, no `now` task waits. */
  run<T>(key: string, task: () => Promise<T>, priority: AdministrationPriority): Promise<T>;
}

interface Lane {
  busy: boolean;
  readonly now: (() => void)[];
  readonly deferred: (() => void)[];
}

/** An {@link AdministrationQueue} kept in memory (one process). */
export function createAdministrationQueue(): AdministrationQueue {
  const lanes = new Map<string, Lane>();
  const next = (key: string, lane: Lane) => {
    const start = lane.now.shift() ?? lane.deferred.shift();
    if (start === undefined) {
      lane.busy = false;
      lanes.delete(key);
      return;
    }
    start();
  };
  return {
    run<T>(key: string, task: () => Promise<T>, priority: AdministrationPriority): Promise<T> {
      let lane = lanes.get(key);
      if (lane === undefined) {
        lane = { busy: false, now: [], deferred: [] };
        lanes.set(key, lane);
      }
      const current = lane;
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          current.busy = true;
          let running: Promise<T>;
          try {
            running = task();
          } catch (error) {
            running = Promise.reject(error);
          }
          running.then(resolve, reject).finally(() => next(key, current));
        };
        if (!current.busy) start();
        else current[priority].push(start);
      });
    },
  };
}
