import type { IntegrateOptions } from "@loop/core";
import { conflictFileState } from "./conflict-markers.js";
import { dirtyPaths } from "./dirty-paths.js";
import { resolveCommit } from "./git-refs.js";
import { readPlanCopy, writePlanCopy } from "./plan-copy.js";
import { clearResolution, writeResolution } from "./resolution-record.js";
import { commitArgs, runGit, splitNul, withoutAutoMaintenance } from "./run-git.js";
import { planCopyPath } from "./task-workspace.js";
import type { TaskNames, WorkspaceContext } from "./workspace-context.js";
import type { WorkspaceRecord } from "./workspace-record.js";
import { runWorktreeGit } from "./worktrees.js";

/** What a resolution in the task's worktree came to. */
export type ResolutionOutcome =
  | { readonly kind: "merged"; readonly commit: string }
  | { readonly kind: "conflict"; readonly files: readonly string[] }
  | { readonly kind: "refused"; readonly message: string };

/** What the resolution works on. */
interface Resolution {
  readonly context: WorkspaceContext;
  readonly names: TaskNames;
  readonly record: WorkspaceRecord;
  /** The main line's commit the merge goes onto. */
  readonly head: string;
  /** The task's work being merged (its branch's tip). */
  readonly source: string;
  /** The conflicted files `git merge-tree` found. */
  readonly files: readonly string[];
  readonly options: IntegrateOptions;
}

/** Unique paths of NUL-separated `git` output. */
function uniquePaths(output: string): string[] {
  return [...new Set(splitNul(output))];
}

/** The paths still unmerged in the index. */
async function unmergedPaths(path: string): Promise<string[]> {
  const result = await runGit(path, ["diff", "--name-only", "-z", "--diff-filter=U"]);
  return uniquePaths(result.stdout);
}

/**
 * Puts the task's worktree back as it was before the resolution: the merge aborted, its branch
 * checked out again, what the merge or the resolver left untracked removed (ignored files
 * stay), the plan copy rewritten. Also what recovery does after a killed resolution.
 */
export async function restoreTaskWorktree(
  context: WorkspaceContext,
  names: TaskNames,
  planText: string | null,
): Promise<void> {
  await runGit(names.path, ["merge", "--abort"], { allowExitCodes: [0, 1, 128] });
  await runWorktreeGit(context.repository, names.path, ["checkout", "-q", "-f", names.branch]);
  await runGit(names.path, ["clean", "-f", "-d", "-q"]);
  if (planText !== null) await writePlanCopy(planCopyPath(context, names), planText);
  await clearResolution(context.repository.stateDirectory, names.safeId);
}

/** Whether the resolver left every conflicted file resolved. */
async function everythingResolved(path: string, conflicted: readonly string[]): Promise<boolean> {
  const unmerged = await unmergedPaths(path);
  for (const file of new Set([...conflicted, ...unmerged])) {
    const state = await conflictFileState(path, file);
    if (state === "markers") return false;
    if (state === "binary" && unmerged.includes(file)) return false;
  }
  return true;
}

/** Runs the resolver and completes the merge; `null` when it is left unresolved. */
async function runResolver(resolution: Resolution): Promise<string | null> {
  const { context, names, record, head, source, options } = resolution;
  const path = names.path;
  const merge = await runGit(
    path,
    [...withoutAutoMaintenance, "merge", "--no-ff", "--no-commit", "-q", source],
    {
      allowExitCodes: [0, 1],
      env: await context.identity(),
    },
  );
  const files = merge.exitCode === 0 ? [] : await unmergedPaths(path);
  if (files.length > 0 && options.resolve !== undefined) {
    if (options.signal?.aborted) return null;
    try {
      await options.resolve({
        taskId: record.taskId,
        path,
        files,
        description: `Merging the work of task ${JSON.stringify(record.taskId)} (${record.title}), branch ${names.branch}, into the main line at ${head.slice(0, 12)}: ${files.length} conflicted file${files.length === 1 ? "" : "s"} (${files.join(", ")}). Resolve the conflict markers in them, keeping the intent of both sides; do not commit.`,
      });
    } catch {
      return null; // a resolver that throws resolved nothing: the merge is rolled back
    }
    if (options.signal?.aborted) return null;
  }
  if (!(await everythingResolved(path, files))) return null;
  const mergeHead = await resolveCommit(path, "MERGE_HEAD");
  if (mergeHead === null) return null; // the resolver aborted or committed the merge itself
  await runGit(path, ["add", "-A"]);
  await runGit(path, ["reset", "-q", head, "--", context.repository.planRelative]);
  await runGit(path, commitArgs(options.message), { env: await context.identity() });
  return resolveCommit(path, "HEAD");
}

/**
 * Redoes a conflicted merge in the task's worktree for `options.resolve`: the worktree is
 * detached at the main line's `head`, the task's work merged in (`git merge --no-ff
 * --no-commit`), the resolver called; when it left no unmerged path and no conflict marker the
 * merge is committed there. Whatever happens — resolved, unresolved, the resolver throws, the
 * signal aborts — the worktree goes back onto its branch with its plan copy. A resolution
 * record written first lets recovery do the same after a kill.
 */
export async function resolveInWorktree(resolution: Resolution): Promise<ResolutionOutcome> {
  const { context, names } = resolution;
  const planPath = planCopyPath(context, names);
  const planRelative = context.repository.planRelative;
  const unsaved = (await dirtyPaths(names.path)).filter(
    (file) => file !== planRelative && !file.endsWith(".loop-tmp"),
  );
  if (unsaved.length > 0) {
    return {
      kind: "refused",
      message: `the task's worktree ${names.path} has unsaved changes (${unsaved.slice(0, 5).join(", ")}); save it before integrating`,
    };
  }
  const planText = await readPlanCopy(planPath);
  await writeResolution(context.repository.stateDirectory, names.safeId, {
    version: 1,
    taskId: resolution.record.taskId,
    branch: names.branch,
    path: names.path,
    planText,
  });
  let commit: string | null = null;
  try {
    await runWorktreeGit(context.repository, names.path, [
      "checkout",
      "-q",
      "-f",
      "--detach",
      resolution.head,
    ]);
    commit = await runResolver(resolution);
  } finally {
    await restoreTaskWorktree(context, names, planText);
  }
  if (commit === null) return { kind: "conflict", files: resolution.files };
  return { kind: "merged", commit };
}
