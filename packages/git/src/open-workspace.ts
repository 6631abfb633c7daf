import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import type { TaskWorkspace } from "@loop/core";
import { finishClose, readCloseRefs } from "./finish-close.js";
import { type RefStep, resolveCommit, updateRefs } from "./git-refs.js";
import { writePlanCopy } from "./plan-copy.js";
import { RepositoryError } from "./repository-error.js";
import { runGit } from "./run-git.js";
import { planCopyPath, taskWorkspace } from "./task-workspace.js";
import {
  keptPrefix,
  type TaskNames,
  taskNames,
  type WorkspaceContext,
} from "./workspace-context.js";
import { deleteRecord, readRecord, type WorkspaceRecord, writeRecord } from "./workspace-record.js";
import { WorkspaceStateError } from "./workspace-state-error.js";
import { listWorktrees, runWorktreeGit } from "./worktrees.js";

/** The options of `open`, as the interface gives them. */
export interface OpenOptions {
  /** The plan text the copy holds. */
  readonly planText: string;
  /** A kept branch to start from. */
  readonly from?: string | undefined;
}

/** Whether the task's worktree is there, registered, complete and on its branch. */
export async function hasLiveWorktree(
  context: WorkspaceContext,
  names: TaskNames,
): Promise<boolean> {
  if (!existsSync(`${names.path}/.git`)) return false;
  const worktrees = await listWorktrees(context.repository);
  return worktrees.some(
    (entry) =>
      entry.path === names.path &&
      entry.locked === null &&
      entry.branch === `refs/heads/${names.branch}`,
  );
}

/** Checks the arguments of `open`. */
function checkOpenArguments(
  task: { readonly id: string; readonly title: string },
  options: OpenOptions,
): void {
  if (typeof task?.id !== "string" || task.id === "") {
    throw new TypeError(
      `gitWorkspaces.open: the task id must be a non-empty string, got ${JSON.stringify(task?.id)}`,
    );
  }
  if (typeof options?.planText !== "string") {
    throw new TypeError("gitWorkspaces.open: option `planText` must be a string");
  }
  if (options.from !== undefined && typeof options.from !== "string") {
    throw new TypeError("gitWorkspaces.open: option `from` must be a branch name");
  }
}

/**
 * Where a new task branch starts: the main line's `HEAD` (`head`, read by the caller), or a
 * kept branch's tip.
 */
async function startingPoint(
  context: WorkspaceContext,
  from: string | undefined,
  head: string | null,
): Promise<{
  readonly start: string;
  readonly base: string;
  readonly kept: WorkspaceRecord | null;
}> {
  const top = context.repository.top;
  if (head === null) throw new RepositoryError({ repo: top, reason: "no-commit" });
  if (from === undefined) return { start: head, base: head, kept: null };
  const tip = from.startsWith(keptPrefix(context))
    ? await resolveCommit(top, `refs/heads/${from}`)
    : null;
  if (tip === null) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces.open: ${JSON.stringify(from)} is not a kept branch (see kept())`,
      where: from,
    });
  }
  const kept = await readRecord(context.repository.stateDirectory, from);
  const base =
    kept !== null && kept.base !== ""
      ? kept.base
      : (await runGit(top, ["merge-base", tip, head])).stdout.trim();
  return { start: tip, base, kept };
}

/**
 * `open`: reopens the task's worktree when it is there (its work kept, the plan copy
 * rewritten); otherwise keeps whatever an earlier attempt left on the task's branch, and makes
 * a new branch and worktree from the main line's `HEAD` (or from the kept branch `from`, which
 * becomes the task's branch again and leaves `kept()`).
 */
export function openWorkspace(
  context: WorkspaceContext,
  task: { readonly id: string; readonly title: string },
  options: OpenOptions,
): Promise<TaskWorkspace> {
  checkOpenArguments(task, options);
  const names = taskNames(context, task.id);
  const { stateDirectory, top } = { ...context.repository };
  return context.tasks.run(names.branch, async () => {
    const record = await readRecord(stateDirectory, names.branch);
    if (record !== null && record.taskId !== task.id) {
      throw new WorkspaceStateError({
        message: `gitWorkspaces.open: task ids ${JSON.stringify(task.id)} and ${JSON.stringify(record.taskId)} map to the same branch ${names.branch}`,
        where: names.branch,
      });
    }
    if (
      record !== null &&
      record.closing === undefined &&
      (await hasLiveWorktree(context, names))
    ) {
      if (options.from !== undefined) {
        throw new WorkspaceStateError({
          message: `gitWorkspaces.open: task ${JSON.stringify(task.id)} still has its worktree ${names.path}; close it before starting from ${options.from}`,
          where: names.path,
        });
      }
      await writePlanCopy(planCopyPath(context, names), options.planText);
      if (!context.lastSaved.has(names.branch)) {
        const tip = await resolveCommit(top, `refs/heads/${names.branch}`);
        if (tip !== null) context.lastSaved.set(names.branch, tip);
      }
      return taskWorkspace(context, task.id, names);
    }
    // What an earlier attempt left (a branch without its worktree, a half-closed one) is kept.
    const leftover = record ?? {
      version: 1 as const,
      taskId: task.id,
      title: task.title,
      branch: names.branch,
      base: "",
      createdAt: context.options.now(),
    };
    // One read of the refs serves both: what is left of the task's branch, and the main line's
    // HEAD the new branch starts from (finishing a close moves no HEAD).
    const refs = await readCloseRefs(context, names);
    await finishClose(context, names, leftover, record?.closing ?? "keep-if-work", refs);
    const { start, base } = await startingPoint(context, options.from, refs.main);
    await writeRecord(stateDirectory, {
      version: 1,
      taskId: task.id,
      title: task.title,
      branch: names.branch,
      base,
      createdAt: context.options.now(),
    });
    const steps: RefStep[] = [{ create: `refs/heads/${names.branch}`, commit: start }];
    if (options.from !== undefined)
      steps.push({ delete: `refs/heads/${options.from}`, expected: start });
    await updateRefs(top, steps);
    if (options.from !== undefined) await deleteRecord(stateDirectory, options.from);
    await mkdir(context.repository.root, { recursive: true });
    await rm(names.path, { recursive: true, force: true });
    await runWorktreeGit(context.repository, top, [
      "worktree",
      "add",
      "--quiet",
      names.path,
      names.branch,
    ]);
    await writePlanCopy(planCopyPath(context, names), options.planText);
    context.lastSaved.set(names.branch, start);
    return taskWorkspace(context, task.id, names);
  });
}
