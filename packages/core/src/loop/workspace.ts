import type { PlanSource } from "../plan/plan-source.js";

/**
 * One task's isolated working copy, from {@link Workspaces.open}: the agent of that task runs
 * in {@link TaskWorkspace.path} and edits its copy of the plan, {@link TaskWorkspace.plan}.
 */
export interface TaskWorkspace {
  /** The task it belongs to. */
  readonly taskId: string;
  /** The working copy's absolute path: the agent's working directory. */
  readonly path: string;
  /** What holds its work, for logs and `loop status`: with git, the task's branch. */
  readonly branch: string;
  /**
   * The plan inside the working copy. It holds the main plan's text as it was when the
   * workspace was opened (or reopened); the agent checks its task's box here. Its edits are
   * never integrated: the engine checks the box in the main plan once the work is in.
   */
  readonly plan: PlanSource;
}

/** What {@link Workspaces.save} found. */
export interface WorkspaceSave {
  /** Files the agent changed since the previous save (or since the workspace was opened). */
  readonly filesChanged: number;
  /** Commits made since then, the save's own included. */
  readonly commits: number;
}

/** A merge that conflicted, given to {@link IntegrateOptions.resolve}. */
export interface MergeConflict {
  /** The task whose work is being integrated. */
  readonly taskId: string;
  /** The working copy where the conflicted merge is in progress, with conflict markers. */
  readonly path: string;
  /** The conflicted files, relative to the working copy. */
  readonly files: readonly string[];
  /** What is merged into what, in words (for the merge agent's prompt). */
  readonly description: string;
}

/** Options of {@link Workspaces.integrate}. */
export interface IntegrateOptions {
  /** The subject of the merge commit. */
  readonly message: string;
  /**
   * Called when the merge conflicts, with the conflicted merge in progress in
   * {@link MergeConflict.path}: resolve the conflicts there (a merge agent) and resolve the
   * promise, leaving the merge uncommitted (the workspace commits it; staging is optional). The
   * workspace then checks that nothing is left unresolved (no unmerged path, no conflict
   * marker) and completes the merge, or rolls it back and reports the conflict. A resolver that
   * throws resolved nothing: the merge is rolled back. Without it a conflict is rolled back at
   * once.
   */
  readonly resolve?: ((conflict: MergeConflict) => Promise<void>) | undefined;
  /** Aborts a resolution in progress (the merge is then rolled back). */
  readonly signal?: AbortSignal | undefined;
}

/** What {@link Workspaces.integrate} did. */
export type Integration =
  | {
      /** The work is on the main line now (or there was none to merge). */
      readonly kind: "integrated";
      /** The commit the main line moved to; `null` when the task changed no file. */
      readonly commit: string | null;
      /** Files the integration changed on the main line. */
      readonly filesChanged: number;
      /** Whether {@link IntegrateOptions.resolve} resolved a conflict on the way. */
      readonly resolved: boolean;
    }
  | {
      /** The merge conflicted and was rolled back: the main line is as it was. */
      readonly kind: "conflict";
      /** The conflicted files. */
      readonly files: readonly string[];
      /** Where the task's work is kept (its branch), for the log. */
      readonly keptBranch: string;
    }
  | {
      /**
       * The merge could not be done for another reason and nothing changed (the main working
       * tree has uncommitted changes in the files it would write, the main line moved). The
       * task's work stays where it is; integrating may be tried again.
       */
      readonly kind: "refused";
      /** Why, in words. */
      readonly message: string;
      /** Where the task's work is kept. */
      readonly keptBranch: string;
    };

/** Options of {@link Workspaces.close}. */
export interface CloseOptions {
  /**
   * `true`: the working copy goes, its work is kept (with git: the branch stays, under the name
   * returned); `false`: both go (the work is integrated, or there was none).
   */
  readonly keep: boolean;
}

/** What {@link Workspaces.recover} found and did, for the decision log. */
export interface WorkspaceRecovery {
  /** Tasks whose working copy is still there, reopened, with the work it held saved. */
  readonly reopened: readonly TaskWorkspace[];
  /** Working copies of tasks not asked for that were removed, their work kept on these branches. */
  readonly kept: readonly { readonly taskId: string; readonly branch: string }[];
  /** Working copies removed that held no work. */
  readonly removed: readonly string[];
  /**
   * An integration the previous run was killed in the middle of: finished (`completed`, the
   * main line is at the merge) or rolled back (`rolled_back`, the main line is as before it).
   */
  readonly integrations: readonly {
    readonly taskId: string;
    readonly outcome: "completed" | "rolled_back";
  }[];
}

/**
 * Isolated working copies for tasks that run at the same time (`runLoop`'s `parallel`
 * option), and the way their work comes back: the plug point of parallel runs. `@loop/git`'s
 * `gitWorkspaces` gives each task a git worktree and branch from the current HEAD and merges
 * them back one at a time, with a backup ref before each merge.
 *
 * The engine calls these one at a time for integration ({@link Workspaces.integrate} is never
 * called twice at once) and opens working copies for several tasks at once.
 */
export interface Workspaces {
  /** A short name for logs. */
  readonly name: string;
  /**
   * Puts right what an earlier run left, before any workspace is opened: an integration it was
   * killed in the middle of is completed or rolled back; the working copies of `resume` are
   * reopened, with the work they hold saved; every other working copy is removed, its work kept.
   */
  recover(options: { readonly resume: readonly string[] }): Promise<WorkspaceRecovery>;
  /**
   * Gives a task a working copy from the current state of the main line, holding `planText`
   * as its plan. A task that already has one (an earlier attempt's) gets that one back, with
   * its work, and its plan copy rewritten with `planText`. With `from` (a branch of
   * {@link Workspaces.kept}) the working copy starts from that kept work instead: the kept work
   * becomes the task's again and leaves {@link Workspaces.kept}.
   */
  open(
    task: { readonly id: string; readonly title: string },
    options: { readonly planText: string; readonly from?: string | undefined },
  ): Promise<TaskWorkspace>;
  /**
   * Saves what the agent left in the working copy (with git: commits it on the task's branch,
   * the plan copy left out) and says what changed since the previous save: the run's progress.
   */
  save(workspace: TaskWorkspace, options: { readonly message: string }): Promise<WorkspaceSave>;
  /**
   * Brings the task's saved work onto the main line (after {@link Workspaces.save}: work not
   * saved is not integrated). A conflict is rolled back — or resolved by
   * {@link IntegrateOptions.resolve} — and never leaves the main line half merged.
   */
  integrate(workspace: TaskWorkspace, options: IntegrateOptions): Promise<Integration>;
  /**
   * Removes the working copy. With `keep` its work stays, on the returned branch, and a later
   * {@link Workspaces.open} of the same task starts afresh from the main line (unless given
   * that branch as `from`); without, the branch goes too.
   */
  close(
    workspace: TaskWorkspace,
    options: CloseOptions,
  ): Promise<{ readonly keptBranch: string | null }>;
  /** The work kept by {@link Workspaces.close} (and by recovery), oldest first. */
  kept(): Promise<readonly KeptWork[]>;
  /** Deletes kept work for good (with git: the branch and its backup ref). */
  discard(branch: string): Promise<void>;
}

/** Work a closed workspace kept, from {@link Workspaces.kept}. */
export interface KeptWork {
  /** The task it was for. */
  readonly taskId: string;
  /** Where it is kept (with git: the branch). */
  readonly branch: string;
  /** When it was kept, in epoch milliseconds. */
  readonly keptAt: number;
  /** Commits it holds beyond the main line. */
  readonly commits: number;
}
