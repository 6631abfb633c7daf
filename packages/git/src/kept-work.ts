import type { KeptWork } from "@loop/core";
import { commitsBeyond, listRefs, type RefStep, resolveCommit, updateRefs } from "./git-refs.js";
import { keptPrefix, taskNames, type WorkspaceContext } from "./workspace-context.js";
import { deleteRecord, readRecord } from "./workspace-record.js";
import { WorkspaceStateError } from "./workspace-state-error.js";

/** `kept`: the kept branches, with their task ids (from their records), oldest first. */
export async function listKept(context: WorkspaceContext): Promise<KeptWork[]> {
  const { top, stateDirectory } = context.repository;
  const refs = await listRefs(top, `refs/heads/${keptPrefix(context)}`);
  const head = await resolveCommit(top, "HEAD");
  const kept: KeptWork[] = [];
  for (const { ref, commit } of refs) {
    const branch = ref.slice("refs/heads/".length);
    const record = await readRecord(stateDirectory, branch);
    const taskId =
      record?.taskId ?? branch.slice(keptPrefix(context).length).split("/")[0] ?? branch;
    const commits = head === null ? 0 : await commitsBeyond(top, commit, head);
    kept.push({ taskId, branch, keptAt: record?.keptAt ?? record?.createdAt ?? 0, commits });
  }
  return kept.sort(
    (first, second) => first.keptAt - second.keptAt || first.branch.localeCompare(second.branch),
  );
}

/**
 * `discard`: deletes a kept branch and its record for good, and the task's backup ref when the
 * task has no branch of its own any more.
 */
export async function discardKept(context: WorkspaceContext, branch: string): Promise<void> {
  const { top, stateDirectory } = context.repository;
  const tip =
    typeof branch === "string" && branch.startsWith(keptPrefix(context))
      ? await resolveCommit(top, `refs/heads/${branch}`)
      : null;
  if (tip === null) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces.discard: ${JSON.stringify(branch)} is not a kept branch (see kept())`,
      where: String(branch),
    });
  }
  const record = await readRecord(stateDirectory, branch);
  const steps: RefStep[] = [{ delete: `refs/heads/${branch}`, expected: tip }];
  if (record !== null) {
    const names = taskNames(context, record.taskId);
    const backup = await resolveCommit(top, names.backupRef);
    const active = await resolveCommit(top, `refs/heads/${names.branch}`);
    if (backup !== null && active === null)
      steps.push({ delete: names.backupRef, expected: backup });
  }
  await updateRefs(top, steps);
  await deleteRecord(stateDirectory, branch);
}
