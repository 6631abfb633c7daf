import { DiagnosticsError, type DiagnosticsErrorOptions } from "../errors/diagnostics-error.js";
import { LoopError } from "../errors/loop-error.js";

const marker = "loop.error.ConfigError";
const symbol = Symbol.for(marker);

/**
 * A config that does not match the schema: unknown or misspelt keys (with the nearest
 * valid key suggested), wrong types, YAML syntax errors. Lists every problem with its key path and line:column.
 * Code: `CONFIG_ERROR`.
 */
export class ConfigError extends DiagnosticsError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** @param options - the problems found, the config's file name and the cause. */
  constructor(options: DiagnosticsErrorOptions) {
    super(options, "Invalid config", "ConfigError", "CONFIG_ERROR");
  }

  /** Whether `error` is a {@link ConfigError}, from any copy of the package. */
  static override isInstance(error: unknown): error is ConfigError {
    return LoopError.hasMarker(error, marker);
  }
}
