import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { TaskWorkspace, WorkspaceRecovery } from "@loop/core";
import { finishClose } from "./finish-close.js";
import { listRefs } from "./git-refs.js";
import { removeKilledWorktreeAdds } from "./killed-worktree-adds.js";
import { readPlanCopy, writePlanCopy } from "./plan-copy.js";
import { recoverIntegration } from "./recover-integration.js";
import { readResolution, resolutionsFolder } from "./resolution-record.js";
import { restoreTaskWorktree } from "./resolve-in-worktree.js";
import { runGit } from "./run-git.js";
import { commitStaged, saveNames } from "./save-workspace.js";
import { removeStaleLocks } from "./stale-locks.js";
import { planCopyPath, taskWorkspace } from "./task-workspace.js";
import {
  keptPrefix,
  type TaskNames,
  taskNames,
  type WorkspaceContext,
} from "./workspace-context.js";
import {
  deleteRecord,
  listRecords,
  type WorkspaceRecord,
  writeRecord,
} from "./workspace-record.js";
import { listWorktrees, removeWorktree, runWorktreeGit, type WorktreeEntry } from "./worktrees.js";

/** The message of the commit recovery makes of work a killed run left uncommitted. */
export const recoverySaveMessage = "loop: work left when the loop stopped";

/** What recovery reports, being filled in. */
interface Report {
  readonly reopened: TaskWorkspace[];
  readonly kept: { taskId: string; branch: string }[];
  readonly removed: string[];
}

/**
 * Aborts the resolutions a killed run left in task worktrees (their records say which).
 *
 * @returns whether a worktree was put back onto its branch (`worktrees` is then out of date).
 */
async function recoverResolutions(
  context: WorkspaceContext,
  worktrees: readonly WorktreeEntry[],
): Promise<boolean> {
  const folder = resolutionsFolder(context.repository.stateDirectory);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return false;
  }
  let restored = false;
  for (const name of names) {
    const path = join(folder, name);
    const record = name.endsWith(".json") ? await readResolution(path) : null;
    if (record !== null) {
      const task = taskNames(context, record.taskId);
      if (task.branch === record.branch && worktrees.some((entry) => entry.path === task.path)) {
        await restoreTaskWorktree(context, task, record.planText);
        restored = true;
      }
    }
    await rm(path, { force: true });
  }
  return restored;
}

/** The main plan's text, for a reopened worktree whose plan copy is gone. */
async function mainPlanText(context: WorkspaceContext): Promise<string | null> {
  try {
    return await readFile(context.options.planPath, "utf8");
  } catch {
    return null;
  }
}

/** Records what {@link finishClose} did. */
function reportClose(
  report: Report,
  record: WorkspaceRecord,
  kept: string | null,
  hadWorktree: boolean,
): void {
  if (kept !== null) report.kept.push({ taskId: record.taskId, branch: kept });
  else if (hadWorktree) report.removed.push(record.taskId);
}

/** Recovers one active task branch and its worktree, from its record. */
async function recoverTask(
  context: WorkspaceContext,
  record: WorkspaceRecord,
  names: TaskNames,
  entry: WorktreeEntry | undefined,
  resume: boolean,
  report: Report,
  killedAdd: boolean,
): Promise<void> {
  const { stateDirectory } = context.repository;
  const live =
    entry !== undefined &&
    entry.locked === null &&
    entry.branch === `refs/heads/${names.branch}` &&
    existsSync(join(names.path, ".git"));
  if (record.closing !== undefined || !live) {
    // A close in progress, a `git worktree add` killed before its checkout was complete (its
    // files are not the branch's: never saved), or a branch whose worktree is gone.
    const kept = await finishClose(context, names, record, record.closing ?? "keep-if-work");
    reportClose(report, record, kept, entry !== undefined || killedAdd);
    return;
  }
  await saveNames(context, names, recoverySaveMessage);
  if (resume) {
    const planPath = planCopyPath(context, names);
    if ((await readPlanCopy(planPath)) === null) {
      const text = await mainPlanText(context);
      if (text !== null) await writePlanCopy(planPath, text);
    }
    report.reopened.push(taskWorkspace(context, record.taskId, names));
    return;
  }
  await writeRecord(stateDirectory, { ...record, closing: "keep-if-work" });
  context.lastSaved.delete(names.branch);
  reportClose(report, record, await finishClose(context, names, record, "keep-if-work"), true);
}

/**
 * Removes what is under the worktrees folder that no task owns: worktrees without a record
 * (work left on a branch is committed there first; the branch stays) and folders git does not
 * know as worktrees. `worktrees` is the list read before the records were recovered: of its
 * entries under the root, those of a recovered task (`handled`) are either reopened (`owned`)
 * or were removed, and every other one is removed here, so what stays registered under the root
 * is exactly `owned` — no second `git worktree list` needed.
 */
async function removeStrays(
  context: WorkspaceContext,
  worktrees: readonly WorktreeEntry[],
  handled: ReadonlySet<string>,
  owned: ReadonlySet<string>,
): Promise<void> {
  const { root, top } = context.repository;
  for (const entry of worktrees) {
    if (dirname(entry.path) !== root || owned.has(entry.path) || handled.has(entry.path)) continue;
    if (entry.branch !== null && entry.locked === null && existsSync(join(entry.path, ".git"))) {
      await runGit(entry.path, ["add", "-A"]);
      await commitStaged(context, entry.path, recoverySaveMessage);
    }
    await removeWorktree(context.repository, entry.path);
  }
  let names: string[] = [];
  try {
    names = await readdir(root);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(root, name);
    if (!owned.has(path) && path !== top)
      await rm(path, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * `recover`: what a killed run left is put right, in this order — stale lock files removed
 * (after waiting for them to go), an interrupted integration finished or rolled back (the
 * journal), interrupted resolutions aborted, then every task worktree under the root saved and
 * either reopened (tasks in `resume`) or removed with its branch kept when it holds commits
 * beyond the main line; closes in progress are finished; what no task owns is removed.
 */
export async function recoverWorkspaces(
  context: WorkspaceContext,
  options: { readonly resume: readonly string[] },
): Promise<WorkspaceRecovery> {
  if (!Array.isArray(options?.resume)) {
    throw new TypeError("gitWorkspaces.recover: option `resume` must be a list of task ids");
  }
  const { repository } = context;
  const { stateDirectory } = repository;
  await removeStaleLocks(repository, context.options.lockTimeoutMs);
  const killedAdds = new Set(await removeKilledWorktreeAdds(repository));
  const integration = await recoverIntegration(repository);
  await runWorktreeGit(repository, repository.top, ["worktree", "prune"]);
  // One `git worktree list` serves what follows, unless a worktree was put back on its branch.
  const listed = await listWorktrees(repository);
  const current = (await recoverResolutions(context, listed))
    ? await listWorktrees(repository)
    : listed;
  const worktrees = current.filter((entry) => dirname(entry.path) === repository.root);
  const resume = new Set(options.resume);
  const report: Report = { reopened: [], kept: [], removed: [] };
  const owned = new Set<string>();
  const handled = new Set<string>();
  const branches = new Set(
    (await listRefs(repository.top, "refs/heads/")).map(({ ref }) =>
      ref.slice("refs/heads/".length),
    ),
  );
  for (const record of await listRecords(stateDirectory)) {
    const names = taskNames(context, record.taskId);
    if (record.branch.startsWith(keptPrefix(context))) {
      if (!branches.has(record.branch)) await deleteRecord(stateDirectory, record.branch);
      continue;
    }
    if (names.branch !== record.branch) continue; // another prefix's record
    const entry = worktrees.find((candidate) => candidate.path === names.path);
    const resumed = resume.has(record.taskId) && record.closing === undefined;
    handled.add(names.path);
    await context.tasks.run(names.branch, () =>
      recoverTask(context, record, names, entry, resumed, report, killedAdds.has(names.path)),
    );
    if (report.reopened.some((workspace) => workspace.branch === names.branch))
      owned.add(names.path);
  }
  await removeStrays(context, worktrees, handled, owned);
  return {
    reopened: report.reopened,
    kept: report.kept,
    removed: report.removed,
    integrations: integration === null ? [] : [integration],
  };
}
