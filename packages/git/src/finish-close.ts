import { existsSync } from "node:fs";
import { commitsBeyond, listRefs, type RefStep, resolveObjects, updateRefs } from "./git-refs.js";
import { keptPrefix, type TaskNames, type WorkspaceContext } from "./workspace-context.js";
import {
  type ClosingIntent,
  deleteRecord,
  type WorkspaceRecord,
  writeRecord,
} from "./workspace-record.js";
import { adminFolder, removeWorktree } from "./worktrees.js";

/** The next free kept name of a task: `<prefix>kept/<safe id>/<n>`. */
async function nextKeptBranch(context: WorkspaceContext, safeId: string): Promise<string> {
  const folder = `${keptPrefix(context)}${safeId}/`;
  const refs = await listRefs(context.repository.top, `refs/heads/${folder}`);
  let highest = 0;
  for (const { ref } of refs) {
    const number = Number(ref.slice(`refs/heads/${folder}`.length));
    if (Number.isInteger(number) && number > highest) highest = number;
  }
  return `${folder}${highest + 1}`;
}

/** What a close reads of the refs, by one git. */
export interface CloseRefs {
  /** The task branch's commit; `null` when the branch is gone. */
  readonly tip: string | null;
  /** The task's backup ref's commit; `null` when there is none. */
  readonly backup: string | null;
  /** The main working tree's `HEAD`; `null` when it names no commit. */
  readonly main: string | null;
}

/** Reads the refs a close of the task needs (one `git cat-file --batch-check`). */
export async function readCloseRefs(
  context: WorkspaceContext,
  names: TaskNames,
): Promise<CloseRefs> {
  const [tip, backup, main] = await resolveObjects(context.repository.top, [
    `refs/heads/${names.branch}^{commit}`,
    `${names.backupRef}^{commit}`,
    "HEAD^{commit}",
  ]);
  return { tip: tip ?? null, backup: backup ?? null, main: main ?? null };
}

/** Removes the task's worktree when anything of it is left (its folder, its admin folder). */
async function removeTaskWorktree(context: WorkspaceContext, names: TaskNames): Promise<void> {
  const { repository } = context;
  if (existsSync(names.path) || (await adminFolder(repository, names.path)) !== null) {
    await removeWorktree(repository, names.path);
  }
}

/**
 * Finishes closing a task's workspace, from wherever a close (or a killed one) left it: the
 * worktree goes, then the branch is kept under a new kept name (with its record) or deleted
 * with its backup ref, as `intent` says. Each step can be repeated: a recovery redoes what a
 * killed close did not finish. The refs are read while the worktree is removed (removing it
 * moves no ref), unless the caller read them already (`refs`).
 *
 * @returns the kept branch; `null` when the branch went (or was not there).
 */
export async function finishClose(
  context: WorkspaceContext,
  names: TaskNames,
  record: WorkspaceRecord,
  intent: ClosingIntent,
  refs?: CloseRefs,
): Promise<string | null> {
  const { repository } = context;
  const [{ tip, backup, main }] = await Promise.all([
    refs ?? readCloseRefs(context, names),
    removeTaskWorktree(context, names),
  ]);
  if (tip === null) {
    await deleteRecord(repository.stateDirectory, names.branch);
    return null;
  }
  const keep =
    intent === "keep" ||
    (intent === "keep-if-work" &&
      (main === null || (await commitsBeyond(repository.top, tip, main)) > 0));
  if (keep) {
    const kept = await nextKeptBranch(context, names.safeId);
    const { closing: _closing, ...rest } = record;
    await writeRecord(repository.stateDirectory, {
      ...rest,
      branch: kept,
      keptAt: context.options.now(),
    });
    await updateRefs(repository.top, [
      { create: `refs/heads/${kept}`, commit: tip },
      { delete: `refs/heads/${names.branch}`, expected: tip },
    ]);
    await deleteRecord(repository.stateDirectory, names.branch);
    return kept;
  }
  const steps: RefStep[] = [{ delete: `refs/heads/${names.branch}`, expected: tip }];
  if (backup !== null) steps.push({ delete: names.backupRef, expected: backup });
  await updateRefs(repository.top, steps);
  await deleteRecord(repository.stateDirectory, names.branch);
  return null;
}
