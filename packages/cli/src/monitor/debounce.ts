/** A function call put off until calls stop coming; see {@link createDebounce}. */
export interface Debounce {
  /** Asks for the call: it runs `delayMs` after the last request. */
  trigger(): void;
  /** Drops a pending call. */
  cancel(): void;
}

/**
 * Runs `action` once, `delayMs` after the last of a burst of {@link Debounce.trigger} calls:
 * an atomic write (temporary file, rename) and a log line arriving together cause one re-read.
 *
 * @param action - what to run.
 * @param delayMs - how long to wait for the burst to end.
 */
export function createDebounce(action: () => void, delayMs: number): Debounce {
  let timer: NodeJS.Timeout | undefined;
  return {
    trigger() {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        action();
      }, delayMs);
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
