/**
 * `AbortSignal` for @loop/core, which compiles without Node or DOM types (its tsconfig has
 * `types: []`): only the members core uses. It merges with the full declaration wherever Node or
 * DOM types are loaded, so callers pass the platform's own `AbortSignal`.
 */
declare global {
  /** A signal that an operation should stop (the platform's `AbortSignal`). */
  interface AbortSignal {
    /** Whether the signal has fired. */
    readonly aborted: boolean;
    /** Calls `listener` when the signal fires. */
    addEventListener(
      type: "abort",
      listener: () => void,
      options?: { readonly once?: boolean },
    ): void;
    /** Stops calling `listener`. */
    removeEventListener(type: "abort", listener: () => void): void;
  }
}

export {};
