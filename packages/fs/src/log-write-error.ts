import { LoopError } from "@loop/core";

const marker = "loop.error.LogWriteError";
const symbol = Symbol.for(marker);

/** Options of the {@link LogWriteError} constructor. */
export interface LogWriteErrorOptions {
  /** The log file that could not be written. */
  readonly path: string;
  /** What went wrong, without the path (`ENOSPC: no space left on device, write`). */
  readonly reason: string;
  /** The underlying error (a Node.js system error with its `code`), if any. */
  readonly cause?: unknown;
}

/**
 * A line could not be appended to a JSON-lines log (`decision.log`, `verifier.log`): the disk
 * is full (`ENOSPC`), permission is denied (`EACCES`), a parent is not a folder (`ENOTDIR`),
 * or the log was closed. The system error, with its `code`, is the `cause`.
 * Code: `LOG_WRITE_ERROR`.
 *
 * Logging is best-effort: the loop's `bestEffort` wrapper reports this error once and goes on.
 */
export class LogWriteError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The log file that could not be written. */
  readonly path: string;

  /** @param options - the file, what went wrong and the underlying error. */
  constructor(options: LogWriteErrorOptions) {
    super(
      { message: `Cannot write to log ${options.path}: ${options.reason}`, cause: options.cause },
      "LogWriteError",
      "LOG_WRITE_ERROR",
    );
    this.path = options.path;
  }

  /** Whether `error` is a {@link LogWriteError}, from any copy of the package. */
  static override isInstance(error: unknown): error is LogWriteError {
    return LoopError.hasMarker(error, marker);
  }
}
