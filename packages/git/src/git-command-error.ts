import { LoopError } from "@loop/core";

const marker = "loop.error.GitCommandError";
const symbol = Symbol.for(marker);

/** Options of the {@link GitCommandError} constructor. */
export interface GitCommandErrorOptions {
  /** The arguments git was run with (after `git`). */
  readonly args: readonly string[];
  /** The directory git ran in. */
  readonly cwd: string;
  /** Its exit code; `null` when it did not exit normally (a signal, or it could not start). */
  readonly exitCode: number | null;
  /** What it wrote on standard error. */
  readonly stderr: string;
  /** The underlying error (from `execFile`). */
  readonly cause?: unknown;
}

/**
 * A git command the workspaces ran failed. The message names the command, the directory and
 * git's own first line of complaint. Code: `GIT_COMMAND_FAILED`.
 */
export class GitCommandError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The arguments git was run with (after `git`). */
  readonly args: readonly string[];
  /** The directory git ran in. */
  readonly cwd: string;
  /** Its exit code; `null` when it did not exit normally. */
  readonly exitCode: number | null;
  /** What it wrote on standard error. */
  readonly stderr: string;

  /** @param options - the command, where it ran and how it failed. */
  constructor(options: GitCommandErrorOptions) {
    const complaint = options.stderr
      .trim()
      .split("\n")
      .find((line) => line.trim() !== "");
    const status = options.exitCode === null ? "did not exit normally" : `exit ${options.exitCode}`;
    super(
      {
        message: `git ${options.args.join(" ")} failed in ${options.cwd} (${status})${complaint === undefined ? "" : `: ${complaint}`}`,
        cause: options.cause,
      },
      "GitCommandError",
      "GIT_COMMAND_FAILED",
    );
    this.args = options.args;
    this.cwd = options.cwd;
    this.exitCode = options.exitCode;
    this.stderr = options.stderr;
  }

  /** Whether `error` is a {@link GitCommandError}, from any copy of the package. */
  static override isInstance(error: unknown): error is GitCommandError {
    return LoopError.hasMarker(error, marker);
  }
}
