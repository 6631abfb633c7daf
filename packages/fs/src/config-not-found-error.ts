import { LoopError } from "@loop/core";

const marker = "loop.error.ConfigNotFoundError";
const symbol = Symbol.for(marker);

/** Options of the {@link ConfigNotFoundError} constructor. */
export interface ConfigNotFoundErrorOptions {
  /** The config's path, as given to `loadConfigFile`. */
  readonly path: string;
  /** The underlying error (the `ENOENT` system error). */
  readonly cause?: unknown;
}

/**
 * A config file that was required (`loadConfigFile(path)` without `optional: true`) does not
 * exist. Code: `CONFIG_NOT_FOUND`; the message names the path.
 */
export class ConfigNotFoundError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The config's path, as given. */
  readonly path: string;

  /** @param options - the path and the underlying error. */
  constructor(options: ConfigNotFoundErrorOptions) {
    super(
      {
        message: `Config file not found: ${options.path} (load it with { optional: true } to run on the defaults without one)`,
        cause: options.cause,
      },
      "ConfigNotFoundError",
      "CONFIG_NOT_FOUND",
    );
    this.path = options.path;
  }

  /** Whether `error` is a {@link ConfigNotFoundError}, from any copy of the package. */
  static override isInstance(error: unknown): error is ConfigNotFoundError {
    return LoopError.hasMarker(error, marker);
  }
}
