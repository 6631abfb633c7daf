import { existsSync } from "node:fs";
import type { TaskWorkspace, WorkspaceSave } from "@loop/core";
import { resolveCommit } from "./git-refs.js";
import { removePlanTemporaries } from "./plan-copy.js";
import { runGit, splitNul } from "./run-git.js";
import { planCopyPath } from "./task-workspace.js";
import { type TaskNames, taskNames, type WorkspaceContext } from "./workspace-context.js";
import { readRecord } from "./workspace-record.js";
import { WorkspaceStateError } from "./workspace-state-error.js";

/** Checks that the worktree is there and on its task's branch. */
async function checkOnBranch(names: TaskNames): Promise<void> {
  if (!existsSync(`${names.path}/.git`)) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces: the worktree ${names.path} is gone (no .git in it)`,
      where: names.path,
    });
  }
  const head = await runGit(names.path, ["symbolic-ref", "-q", "HEAD"], { allowExitCodes: [0, 1] });
  const branch = head.stdout.trim();
  if (branch !== `refs/heads/${names.branch}`) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces: the worktree ${names.path} is on ${branch === "" ? "a detached HEAD" : branch}, not on its task's branch ${names.branch}; its work is not saved`,
      where: names.path,
    });
  }
}

/**
 * Stages everything in the worktree except the plan copy, which is staged as it is at `base`
 * (or left out when `base` has no plan file): the branch never changes the plan, even when the
 * agent committed its box itself (the save commit then reverts the plan file).
 */
export async function stageAllButPlan(
  path: string,
  planRelative: string,
  base: string,
): Promise<void> {
  await runGit(path, ["add", "-A"]);
  await runGit(path, ["reset", "-q", base, "--", planRelative]);
}

/**
 * Commits what is staged, with `message`, when it differs from `HEAD`: no hook runs
 * (`--no-verify`: a user's hook never blocks saving work), no signing prompt.
 *
 * @returns whether a commit was made.
 */
export async function commitStaged(
  context: WorkspaceContext,
  path: string,
  message: string,
): Promise<boolean> {
  const staged = await runGit(path, ["diff", "--cached", "--quiet"], { allowExitCodes: [0, 1] });
  if (staged.exitCode === 0) return false;
  await runGit(
    path,
    ["commit", "-q", "--no-verify", "--no-gpg-sign", "--allow-empty-message", "-m", message],
    { env: await context.identity() },
  );
  return true;
}

/** Saves a task's worktree (inside the task's queue). */
export async function saveNames(
  context: WorkspaceContext,
  names: TaskNames,
  message: string,
): Promise<WorkspaceSave> {
  const { stateDirectory, planRelative } = context.repository;
  await checkOnBranch(names);
  const record = await readRecord(stateDirectory, names.branch);
  if (record === null) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces: no record of the task branch ${names.branch}; was it opened by these workspaces?`,
      where: names.branch,
    });
  }
  await removePlanTemporaries(planCopyPath(context, names));
  await stageAllButPlan(names.path, planRelative, record.base);
  await commitStaged(context, names.path, message);
  const head = await resolveCommit(names.path, "HEAD");
  if (head === null) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces: ${names.path} has no HEAD`,
      where: names.path,
    });
  }
  const previous = context.lastSaved.get(names.branch) ?? record.base;
  context.lastSaved.set(names.branch, head);
  if (previous === head) return { filesChanged: 0, commits: 0 };
  const [files, count] = await Promise.all([
    runGit(names.path, ["diff", "--name-only", "-z", "--no-renames", previous, head]),
    runGit(names.path, ["rev-list", "--count", head, "--not", previous]),
  ]);
  return { filesChanged: splitNul(files.stdout).length, commits: Number(count.stdout.trim()) };
}

/** `save`: commits what the agent left uncommitted, the plan copy left out. */
export function saveWorkspace(
  context: WorkspaceContext,
  workspace: TaskWorkspace,
  options: { readonly message: string },
): Promise<WorkspaceSave> {
  if (typeof options?.message !== "string") {
    return Promise.reject(new TypeError("gitWorkspaces.save: option `message` must be a string"));
  }
  const names = taskNames(context, workspace.taskId);
  // The plan copy's writes wait too (its own queue: a resolver may write it during integrate).
  return context.tasks.run(names.branch, () =>
    context.tasks.run(`plan:${names.branch}`, () => saveNames(context, names, options.message)),
  );
}
