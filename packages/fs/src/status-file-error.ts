import { DiagnosticsError, type DiagnosticsErrorOptions, LoopError } from "@loop/core";

const marker = "loop.error.StatusFileError";
const symbol = Symbol.for(marker);

/**
 * A `status.json` that cannot be used: a status to write with a missing, misspelt or invalid
 * field, or a file that is not JSON or not a status. Lists every problem with its field (and
 * line:column for JSON syntax). Code: `STATUS_FILE_ERROR`.
 */
export class StatusFileError extends DiagnosticsError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** @param options - the problems found, the file's path and the cause. */
  constructor(options: DiagnosticsErrorOptions) {
    super(options, "Invalid status", "StatusFileError", "STATUS_FILE_ERROR");
  }

  /** Whether `error` is a {@link StatusFileError}, from any copy of the package. */
  static override isInstance(error: unknown): error is StatusFileError {
    return LoopError.hasMarker(error, marker);
  }
}
