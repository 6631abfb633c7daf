import { LoopError } from "@loop/core";

const marker = "loop.error.RepositoryError";
const symbol = Symbol.for(marker);

/**
 * The repository cannot hold task workspaces as it is: `repo` is not a git working tree
 * (`reason: "not-a-repository"`), or its `HEAD` has no commit yet to start tasks from
 * (`reason: "no-commit"`). Code: `GIT_REPOSITORY_UNUSABLE`.
 */
export class RepositoryError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The repository path, as given. */
  readonly repo: string;
  /** What is wrong with it. */
  readonly reason: "not-a-repository" | "no-commit";

  /** @param options - the repository, what is wrong and the underlying error. */
  constructor(options: {
    readonly repo: string;
    readonly reason: "not-a-repository" | "no-commit";
    readonly cause?: unknown;
  }) {
    super(
      {
        message:
          options.reason === "no-commit"
            ? `gitWorkspaces: the repository ${options.repo} has no commit yet; commit once so tasks have a HEAD to start from`
            : `gitWorkspaces: ${options.repo} is not a git working tree`,
        cause: options.cause,
      },
      "RepositoryError",
      "GIT_REPOSITORY_UNUSABLE",
    );
    this.repo = options.repo;
    this.reason = options.reason;
  }

  /** Whether `error` is a {@link RepositoryError}, from any copy of the package. */
  static override isInstance(error: unknown): error is RepositoryError {
    return LoopError.hasMarker(error, marker);
  }
}
