import { GitCommandError } from "./git-command-error.js";
import { resolveCommit, updateRefs } from "./git-refs.js";
import { clearJournal, writeJournal } from "./integration-journal.js";
import { runGit, withoutAutoMaintenance } from "./run-git.js";
import type { TaskNames, WorkspaceContext } from "./workspace-context.js";

/** What bringing the main working tree to the merge came to. */
export type FastForwardOutcome =
  | { readonly kind: "done" }
  | { readonly kind: "moved" }
  | { readonly kind: "refused"; readonly message: string };

/**
 * Sets the backup ref (`refs/loop/backup/<safe id>` = `head`) in one transaction with a check
 * that the main working tree's `HEAD` is still at `head`: `false` (nothing written) when it
 * moved.
 */
async function setBackup(
  context: WorkspaceContext,
  names: TaskNames,
  head: string,
): Promise<boolean> {
  const top = context.repository.top;
  try {
    await updateRefs(top, [
      { verify: "HEAD", commit: head },
      { update: names.backupRef, commit: head },
    ]);
    return true;
  } catch (error) {
    // A failed verify and any other failure look alike: HEAD itself says which it was.
    if (GitCommandError.isInstance(error) && (await resolveCommit(top, "HEAD")) !== head) {
      return false;
    }
    throw error;
  }
}

/**
 * Brings the main working tree from `head` to the merge commit `target` (a child of `head`):
 * the backup ref (`refs/loop/backup/<safe id>` = `head`, set only while `HEAD` is still at
 * `head`) and the journal are written first, then `git merge --ff-only`, then the journal is
 * cleared. A kill at any instant leaves the journal for recovery, which finishes or rolls back.
 */
export async function fastForwardMain(
  context: WorkspaceContext,
  names: TaskNames,
  taskId: string,
  head: string,
  target: string,
): Promise<FastForwardOutcome> {
  const { top, stateDirectory } = context.repository;
  if (!(await setBackup(context, names, head))) return { kind: "moved" };
  await writeJournal(stateDirectory, {
    version: 1,
    taskId,
    branch: names.branch,
    backupRef: names.backupRef,
    backup: head,
    target,
    startedAt: context.options.now(),
  });
  const merge = await runGit(
    top,
    [...withoutAutoMaintenance, "merge", "--ff-only", "-q", "--no-stat", target],
    {
      allowExitCodes: [0, 1, 128],
    },
  );
  // A fast-forward that succeeded leaves HEAD at `target` (`target` is a new commit: no other
  // line holds it, so "already up to date" cannot be); only a failure needs HEAD read.
  const after = merge.exitCode === 0 ? target : await resolveCommit(top, "HEAD");
  await clearJournal(stateDirectory);
  if (after === target) return { kind: "done" };
  if (after !== head) return { kind: "moved" };
  const complaint = merge.stderr.trim().split("\n")[0] ?? "";
  return {
    kind: "refused",
    message: `git merge --ff-only in the main working tree failed: ${complaint}`,
  };
}
