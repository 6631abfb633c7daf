import { LoopError } from "@loop/core";

const marker = "loop.error.GitVersionError";
const symbol = Symbol.for(marker);

/**
 * The installed git is too old (or absent): the workspaces compute merges with
 * `git merge-tree --write-tree`, which git 2.38 introduced. Code: `GIT_VERSION_UNSUPPORTED`.
 */
export class GitVersionError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** What `git --version` said; `null` when git could not be run. */
  readonly version: string | null;
  /** The oldest version that works, `2.38`. */
  readonly required: string;

  /** @param options - the version found, the one required and the underlying error. */
  constructor(options: {
    readonly version: string | null;
    readonly required: string;
    readonly cause?: unknown;
  }) {
    super(
      {
        message:
          options.version === null
            ? `git could not be run; git workspaces need git ${options.required} or later`
            : `git workspaces need git ${options.required} or later (git merge-tree --write-tree); found ${options.version}`,
        cause: options.cause,
      },
      "GitVersionError",
      "GIT_VERSION_UNSUPPORTED",
    );
    this.version = options.version;
    this.required = options.required;
  }

  /** Whether `error` is a {@link GitVersionError}, from any copy of the package. */
  static override isInstance(error: unknown): error is GitVersionError {
    return LoopError.hasMarker(error, marker);
  }
}
