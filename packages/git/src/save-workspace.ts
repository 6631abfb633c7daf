import { existsSync } from "node:fs";
import type { TaskWorkspace, WorkspaceSave } from "@loop/core";
import { GitCommandError } from "./git-command-error.js";
import { removePlanTemporaries } from "./plan-copy.js";
import { commitArgs, runGit, splitNul } from "./run-git.js";
import { planCopyPath } from "./task-workspace.js";
import { type TaskNames, taskNames, type WorkspaceContext } from "./workspace-context.js";
import { readRecord } from "./workspace-record.js";
import { WorkspaceStateError } from "./workspace-state-error.js";

/**
 * Checks that the worktree is there and on its task's branch, and returns its `HEAD` commit:
 * both from one `git rev-parse`.
 */
async function checkOnBranch(names: TaskNames): Promise<string> {
  if (!existsSync(`${names.path}/.git`)) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces: the worktree ${names.path} is gone (no .git in it)`,
      where: names.path,
    });
  }
  // `HEAD` first as a commit, then (the option applies to what follows it) as the full name of
  // the branch it is on: `HEAD` when detached.
  const result = await runGit(names.path, ["rev-parse", "HEAD", "--symbolic-full-name", "HEAD"], {
    allowExitCodes: [0, 128],
  });
  const [head, branch] = result.stdout.trim().split("\n");
  if (result.exitCode !== 0 || head === undefined || branch === undefined) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces: ${names.path} has no HEAD`,
      where: names.path,
    });
  }
  if (branch !== `refs/heads/${names.branch}`) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces: the worktree ${names.path} is on ${branch === "HEAD" ? "a detached HEAD" : branch}, not on its task's branch ${names.branch}; its work is not saved`,
      where: names.path,
    });
  }
  return head;
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
 * (`--no-verify`: a user's hook never blocks saving work), no signing prompt. The commit is
 * tried first (most saves have work): git exits 1 when nothing is staged, and only then does
 * `git diff --cached --quiet` say whether that was all (a failure git also reports with 1, a
 * `prepare-commit-msg` hook's, is thrown).
 *
 * @returns whether a commit was made.
 */
export async function commitStaged(
  context: WorkspaceContext,
  path: string,
  message: string,
): Promise<boolean> {
  const args = commitArgs(message);
  const commit = await runGit(path, args, {
    env: await context.identity(),
    allowExitCodes: [0, 1],
  });
  if (commit.exitCode === 0) return true;
  const staged = await runGit(path, ["diff", "--cached", "--quiet"], { allowExitCodes: [0, 1] });
  if (staged.exitCode === 0) return false;
  throw new GitCommandError({ args, cwd: path, exitCode: commit.exitCode, stderr: commit.stderr });
}

/** Files changed and commits made from `previous` to `head` in the worktree at `path`. */
async function changesSince(path: string, previous: string, head: string): Promise<WorkspaceSave> {
  const [files, count] = await Promise.all([
    runGit(path, ["diff", "--name-only", "-z", "--no-renames", previous, head]),
    runGit(path, ["rev-list", "--count", head, "--not", previous]),
  ]);
  return { filesChanged: splitNul(files.stdout).length, commits: Number(count.stdout.trim()) };
}

/**
 * The worktree's new `HEAD` after a commit, with the files changed and commits made since
 * `previous`: the commits listed (`git rev-list --topo-order HEAD --not previous`) and the diff,
 * at once. A new commit is never in `previous`'s history, so `HEAD` is listed, and first: in
 * topological order no commit comes before its children, and every other commit listed has a
 * child on its way to `HEAD` that is listed too (commit dates do not decide it).
 */
async function changesOfCommit(
  path: string,
  previous: string,
): Promise<{ readonly head: string; readonly save: WorkspaceSave }> {
  const [files, listed] = await Promise.all([
    runGit(path, ["diff", "--name-only", "-z", "--no-renames", previous, "HEAD"]),
    runGit(path, ["rev-list", "--topo-order", "HEAD", "--not", previous]),
  ]);
  const commits = listed.stdout.split("\n").filter((line) => line !== "");
  const head = commits[0];
  if (head === undefined) {
    throw new WorkspaceStateError({ message: `gitWorkspaces: ${path} has no HEAD`, where: path });
  }
  return { head, save: { filesChanged: splitNul(files.stdout).length, commits: commits.length } };
}

/**
 * The worktree's new `HEAD` and what it changed, when it is the one commit made since the last
 * save (the agent committed nothing of its own): `git diff-tree` of `HEAD` names the commit,
 * then the files it changed against its parent, in one git run.
 */
async function changesOfOneCommit(
  path: string,
): Promise<{ readonly head: string; readonly save: WorkspaceSave }> {
  const listed = await runGit(path, [
    "diff-tree",
    "-r",
    "--name-only",
    "-z",
    "--no-renames",
    "HEAD",
  ]);
  const [head, ...files] = splitNul(listed.stdout);
  if (head === undefined || head === "") {
    throw new WorkspaceStateError({ message: `gitWorkspaces: ${path} has no HEAD`, where: path });
  }
  return { head, save: { filesChanged: files.length, commits: 1 } };
}

/** Saves a task's worktree (inside the task's queue). */
export async function saveNames(
  context: WorkspaceContext,
  names: TaskNames,
  message: string,
): Promise<WorkspaceSave> {
  const { stateDirectory, planRelative } = context.repository;
  const before = await checkOnBranch(names);
  const record = await readRecord(stateDirectory, names.branch);
  if (record === null) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces: no record of the task branch ${names.branch}; was it opened by these workspaces?`,
      where: names.branch,
    });
  }
  await removePlanTemporaries(planCopyPath(context, names));
  await stageAllButPlan(names.path, planRelative, record.base);
  const committed = await commitStaged(context, names.path, message);
  const previous = context.lastSaved.get(names.branch) ?? record.base;
  if (committed) {
    const { head, save } =
      previous === before
        ? await changesOfOneCommit(names.path)
        : await changesOfCommit(names.path, previous);
    context.lastSaved.set(names.branch, head);
    return save;
  }
  // Nothing staged: HEAD is where it was before (the agent's own commits included).
  context.lastSaved.set(names.branch, before);
  if (previous === before) return { filesChanged: 0, commits: 0 };
  return changesSince(names.path, previous, before);
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
