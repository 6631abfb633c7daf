import { existsSync } from "node:fs";
import { commitsBeyond, listRefs, type RefStep, resolveCommit, updateRefs } from "./git-refs.js";
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

/**
 * Finishes closing a task's workspace, from wherever a close (or a killed one) left it: the
 * worktree goes, then the branch is kept under a new kept name (with its record) or deleted
 * with its backup ref, as `intent` says. Each step can be repeated: a recovery redoes what a
 * killed close did not finish.
 *
 * @returns the kept branch; `null` when the branch went (or was not there).
 */
export async function finishClose(
  context: WorkspaceContext,
  names: TaskNames,
  record: WorkspaceRecord,
  intent: ClosingIntent,
): Promise<string | null> {
  const { repository } = context;
  if (existsSync(names.path) || (await adminFolder(repository, names.path)) !== null) {
    await removeWorktree(repository, names.path);
  }
  const tip = await resolveCommit(repository.top, `refs/heads/${names.branch}`);
  if (tip === null) {
    await deleteRecord(repository.stateDirectory, names.branch);
    return null;
  }
  const main = await resolveCommit(repository.top, "HEAD");
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
  const backup = await resolveCommit(repository.top, names.backupRef);
  if (backup !== null) steps.push({ delete: names.backupRef, expected: backup });
  await updateRefs(repository.top, steps);
  await deleteRecord(repository.stateDirectory, names.branch);
  return null;
}
