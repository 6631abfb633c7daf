const marker = "loop.error";
const symbol = Symbol.for(marker);

/** Options shared by every {@link LoopError} constructor. */
export interface LoopErrorOptions {
  /** Human-readable description of what went wrong and, where possible, what would be valid. */
  readonly message: string;
  /** The underlying error or value that caused this one, if any. */
  readonly cause?: unknown;
}

/**
 * Base class of every error the loop SDK throws on purpose.
 *
 * Each subclass has a stable {@link LoopError.code} to branch on, keeps the original
 * error as `cause`, and offers a static `isInstance` that recognises errors created by a
 * different copy of the package (two installed versions, a bundled and an external copy),
 * where `instanceof` would fail.
 *
 * @example
 * ```ts
 * try {
 *   parseConfig(text);
 * } catch (error) {
 *   if (ConfigError.isInstance(error)) console.error(error.message);
 *   else throw error;
 * }
 * ```
 */
export class LoopError extends Error {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** Stable, machine-readable identifier of the kind of error (for example `CONFIG_ERROR`). */
  readonly code: string;

  /**
   * @param options - the message and optional cause.
   * @param name - the class name, set by subclasses.
   * @param code - the stable code, set by subclasses.
   */
  constructor(options: LoopErrorOptions, name = "LoopError", code = "LOOP_ERROR") {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.code = code;
  }

  /** Whether `error` is a {@link LoopError} (of any subclass), from any copy of the package. */
  static isInstance(error: unknown): error is LoopError {
    return LoopError.hasMarker(error, marker);
  }

  /**
   * Whether `error` carries the global-symbol marker `marker`. Subclasses use it to build
   * their own `isInstance`.
   */
  protected static hasMarker(error: unknown, markerName: string): boolean {
    const markerSymbol = Symbol.for(markerName);
    return (
      typeof error === "object" &&
      error !== null &&
      markerSymbol in error &&
      (error as Record<symbol, unknown>)[markerSymbol] === true
    );
  }
}
