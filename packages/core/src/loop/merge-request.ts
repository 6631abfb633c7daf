import type { ExecutionRequest } from "./executor.js";
import type { LoopTask } from "./plan-view.js";
import type { MergeConflict } from "./workspace.js";

/** What a merge agent is asked in a parallel run, besides the conflict itself. */
export interface MergeRequestContext {
  /** The task whose work conflicts. */
  readonly task: LoopTask;
  /** The iteration that finished the task. */
  readonly iteration: number;
  /** The loop's terminal. */
  readonly terminalId: string;
  /** The main plan, for the agent to read what the task was. */
  readonly plan: { readonly path: string; readonly text: string };
  /** The conflict, with the conflicted merge in progress in its `path`. */
  readonly conflict: MergeConflict;
  /** The branch of the task's work. */
  readonly branch: string;
}

/** The prompt of a merge agent: resolve the conflicts, keep both sides' intent, do not commit. */
export function mergePrompt(context: MergeRequestContext): string {
  const { task, conflict } = context;
  const files = conflict.files.map((file) => `- ${file}`).join("\n");
  return [
    `A merge conflicts: ${conflict.description}.`,
    "",
    `The task whose work is being merged: ${task.id} — ${task.title}`,
    "",
    "The merge is in progress in your working directory. These files have conflicts:",
    files,
    "",
    "Resolve every conflict: edit each file so that it keeps what both sides meant (the main",
    "line's changes and the task's), remove every conflict marker (<<<<<<<, =======, >>>>>>>),",
    "and make sure the result builds and its tests pass. Then stage the files with `git add`.",
    "Do not commit, do not abort the merge, do not change other files and do not edit the plan:",
    "the loop checks that nothing is left unresolved and completes the merge itself.",
  ].join("\n");
}

/**
 * The request a parallel run's merge agent gets (`ParallelOptions.mergeExecutor`): kind
 * `merge`, the task, the main plan, and the workspace holding the conflicted merge.
 */
export function mergeRequest(context: MergeRequestContext): ExecutionRequest {
  return {
    kind: "merge",
    task: context.task,
    prompt: mergePrompt(context),
    iteration: context.iteration,
    attempt: 1,
    terminalId: context.terminalId,
    plan: context.plan,
    sessionId: null,
    unmetRequirements: [],
    concerns: [],
    workspace: { path: context.conflict.path, branch: context.branch },
  };
}
