/** What {@link stopOnSignals} returns: removes its handlers. */
export interface SignalHandlers {
  dispose(): void;
}

/**
 * The signals that stop `loop run` cleanly: Ctrl+C (SIGINT), SIGTERM, and SIGHUP — the terminal
 * closed, which must not leave the agent working in its own process group.
 */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Stops the loop cleanly on the first of {@link STOP_SIGNALS} (`controller.abort()`: the agent's
 * process group is stopped, the state saved, the loop exits `aborted`), and exits the process at
 * once with code 130 on a second one (the agent's group then gets SIGKILL as the process exits).
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
  for (const signal of STOP_SIGNALS) process.on(signal, handle);
  return {
    dispose() {
      for (const signal of STOP_SIGNALS) process.off(signal, handle);
    },
  };
}
