import { LoopError } from "@loop/core";

const marker = "loop.error.WorkspaceStateError";
const symbol = Symbol.for(marker);

/**
 * A task workspace, or a branch given to the workspaces, is not in a state they can work with:
 * the worktree is not on its task's branch (the agent switched branches), its `.git` is gone,
 * `discard` or `open({ from })` names a branch that is not kept work, two task ids map to one
 * name. The message says what and where. Code: `GIT_WORKSPACE_STATE`.
 */
export class WorkspaceStateError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The worktree or branch concerned. */
  readonly where: string;

  /** @param options - what is wrong, and the worktree or branch concerned. */
  constructor(options: {
    readonly message: string;
    readonly where: string;
    readonly cause?: unknown;
  }) {
    super(
      { message: options.message, cause: options.cause },
      "WorkspaceStateError",
      "GIT_WORKSPACE_STATE",
    );
    this.where = options.where;
  }

  /** Whether `error` is a {@link WorkspaceStateError}, from any copy of the package. */
  static override isInstance(error: unknown): error is WorkspaceStateError {
    return LoopError.hasMarker(error, marker);
  }
}
