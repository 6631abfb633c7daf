/** Runs asynchronous tasks one after another, in the order they were given. */
export interface SerialQueue {
  /**
   * Runs `task` once every task given before it has settled. A failing task rejects its own
   * promise only; the next task still runs.
   */
  run<Result>(task: () => Promise<Result>): Promise<Result>;
  /** Resolves once every task given so far has settled. */
  idle(): Promise<void>;
}

/** Does nothing: keeps the queue going after a failed task. */
function ignore(): void {}

/**
 * Creates a queue of tasks that run one at a time, in call order, within this process: how a
 * log keeps its lines in order and a status file its writes.
 *
 * @returns an empty queue.
 */
export function createSerialQueue(): SerialQueue {
  let tail: Promise<void> = Promise.resolve();
  return {
    run<Result>(task: () => Promise<Result>): Promise<Result> {
      const result = tail.then(task);
      tail = result.then(ignore, ignore);
      return result;
    },
    idle(): Promise<void> {
      return tail;
    },
  };
}
