import { LoopError } from "@loop/core";

const marker = "loop.error.PlanOutsideRepositoryError";
const symbol = Symbol.for(marker);

/**
 * The plan file is not inside the repository's working tree (or it is inside the worktrees
 * folder, or inside `.git`), so a task's working copy cannot hold a copy of it at the same
 * relative path. Code: `PLAN_OUTSIDE_REPOSITORY`.
 */
export class PlanOutsideRepositoryError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The plan's path, as given. */
  readonly planPath: string;
  /** The repository's working tree. */
  readonly repo: string;

  /** @param options - the plan's path, the working tree and why it does not fit. */
  constructor(options: {
    readonly planPath: string;
    readonly repo: string;
    readonly reason: string;
  }) {
    super(
      { message: `gitWorkspaces: the plan ${options.planPath} ${options.reason}` },
      "PlanOutsideRepositoryError",
      "PLAN_OUTSIDE_REPOSITORY",
    );
    this.planPath = options.planPath;
    this.repo = options.repo;
  }

  /** Whether `error` is a {@link PlanOutsideRepositoryError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PlanOutsideRepositoryError {
    return LoopError.hasMarker(error, marker);
  }
}
