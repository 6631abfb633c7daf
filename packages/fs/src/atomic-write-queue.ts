/** The last queued operation per key; each settles without rejecting. */
const tails = new Map<string, Promise<void>>();

/**
 * Runs `task` after every task queued before it under the same `key` has settled, so writes to
 * one file from one process happen one after another, in call order. Tasks under different
 * keys run concurrently. A failing task does not stop the ones queued after it.
 *
 * The queue is per process (module state); other processes are not ordered by it.
 *
 * @param key - what to serialise on, for example an absolute file path.
 * @param task - the operation to run.
 * @returns the task's result.
 */
export function runExclusively<Result>(key: string, task: () => Promise<Result>): Promise<Result> {
  const previous = tails.get(key) ?? Promise.resolve();
  const result = previous.then(task);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return result;
}
