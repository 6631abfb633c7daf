import { LoopError } from "@loop/core";

/** The command line is wrong: an unknown option, a missing or invalid value. Exit code 2. */
export class UsageError extends LoopError {
  /** @param message - what is wrong and what would be valid. */
  constructor(message: string) {
    super({ message }, "UsageError", "LOOP_CLI_USAGE");
  }
}
