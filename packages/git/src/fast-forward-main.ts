import { resolveCommit, updateRefs } from "./git-refs.js";
import { clearJournal, writeJournal } from "./integration-journal.js";
import { runGit } from "./run-git.js";
import type { TaskNames, WorkspaceContext } from "./workspace-context.js";

/** What bringing the main working tree to the merge came to. */
export type FastForwardOutcome =
  | { readonly kind: "done" }
  | { readonly kind: "moved" }
  | { readonly kind: "refused"; readonly message: string };

/**
 * Brings the main working tree from `head` to the merge commit `target` (a child of `head`):
 * the backup ref (`refs/loop/backup/<safe id>` = `head`) and the journal are written first,
 * then `git merge --ff-only`, then the journal is cleared. A kill at any instant leaves the
 * journal for recovery, which finishes or rolls back.
 */
export async function fastForwardMain(
  context: WorkspaceContext,
  names: TaskNames,
  taskId: string,
  head: string,
  target: string,
): Promise<FastForwardOutcome> {
  const { top, stateDirectory } = context.repository;
  if ((await resolveCommit(top, "HEAD")) !== head) return { kind: "moved" };
  await updateRefs(top, [{ update: names.backupRef, commit: head }]);
  await writeJournal(stateDirectory, {
    version: 1,
    taskId,
    branch: names.branch,
    backupRef: names.backupRef,
    backup: head,
    target,
    startedAt: context.options.now(),
  });
  const merge = await runGit(top, ["merge", "--ff-only", "-q", "--no-stat", target], {
    allowExitCodes: [0, 1, 128],
  });
  const after = await resolveCommit(top, "HEAD");
  await clearJournal(stateDirectory);
  if (after === target) return { kind: "done" };
  if (after !== head) return { kind: "moved" };
  const complaint = merge.stderr.trim().split("\n")[0] ?? "";
  return {
    kind: "refused",
    message: `git merge --ff-only in the main working tree failed: ${complaint}`,
  };
}
