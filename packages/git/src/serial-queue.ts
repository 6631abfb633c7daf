/** Runs functions one at a time per key, in call order. */
export interface KeyedQueue {
  /** Runs `task` once every earlier task of `key` has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

/** A {@link KeyedQueue} kept in memory (one process). */
export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}
