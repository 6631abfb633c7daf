/**
 * Runs `task` once the current turn of the event loop is over (`setImmediate`), and resolves
 * with what it resolves with. For `loop run`'s own bookkeeping (`status.json`, the iteration
 * logs): the loop emits its events on its way from one agent to the next, and what a listener
 * starts this way runs while the loop waits (on a state write's flush, on the agent), not on
 * that way.
 *
 * @param task - the work, started later.
 */
export function afterThisTurn<T>(task: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    setImmediate(() => task().then(resolve, reject));
  });
}
