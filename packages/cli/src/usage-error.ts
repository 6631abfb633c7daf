import { LoopError } from "@loop/core";

const marker = "loop.error.UsageError";
const symbol = Symbol.for(marker);

/** The command line is wrong: an unknown option, a missing or invalid value. Exit code 2. */
export class UsageError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** @param message - what is wrong and what would be valid. */
  constructor(message: string) {
    super({ message }, "UsageError", "LOOP_CLI_USAGE");
  }

  /** Whether `error` is a {@link UsageError}, from any copy of the package. */
  static override isInstance(error: unknown): error is UsageError {
    return LoopError.hasMarker(error, marker);
  }
}
