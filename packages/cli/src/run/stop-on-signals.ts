/** What {@link stopOnSignals} returns: removes its handlers. */
export interface SignalHandlers {
  dispose(): void;
}

/**
 * Stops the loop cleanly on the first SIGINT or SIGTERM (`controller.abort()`: the agent is
 * stopped, the state saved, the loop exits `aborted`), and exits the process at once with code
 * 130 on a second one.
 *
 * @param controller - the loop's abort controller.
 * @param onFirst - called once, when the first signal arrives (to tell the user).
 */
export function stopOnSignals(controller: AbortController, onFirst: () => void): SignalHandlers {
  let count = 0;
  const handle = () => {
    count += 1;
    if (count === 1) {
      onFirst();
      controller.abort();
      return;
    }
    process.exit(130);
  };
  process.on("SIGINT", handle);
  process.on("SIGTERM", handle);
  return {
    dispose() {
      process.off("SIGINT", handle);
      process.off("SIGTERM", handle);
    },
  };
}
