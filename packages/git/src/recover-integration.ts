import { rm } from "node:fs/promises";
import { join } from "node:path";
import { isAncestor, resolveCommit } from "./git-refs.js";
import { clearJournal, type IntegrationJournal, readJournal } from "./integration-journal.js";
import type { Repository } from "./repository.js";
import { runGit, splitNul } from "./run-git.js";

/** An interrupted integration, finished or rolled back. */
export interface RecoveredIntegration {
  /** The task. */
  readonly taskId: string;
  /** What recovery did. */
  readonly outcome: "completed" | "rolled_back";
}

/**
 * Puts back, in the main working tree's index and files, exactly the paths the merge changes
 * (`git diff backup target`) as they are at `backup`: a `git merge --ff-only` killed half-way
 * may have written some of them. Paths absent at `backup` are removed. Every other path —
 * the plan, the user's own changes — is left as it is.
 */
async function restoreBackupPaths(
  repository: Repository,
  journal: IntegrationJournal,
): Promise<void> {
  const top = repository.top;
  const fields = splitNul(
    (
      await runGit(top, [
        "diff",
        "--name-status",
        "-z",
        "--no-renames",
        journal.backup,
        journal.target,
      ])
    ).stdout,
  );
  const present: string[] = [];
  const absent: string[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const status = fields[index] ?? "";
    const path = fields[index + 1] ?? "";
    (status.startsWith("A") ? absent : present).push(path);
  }
  if (present.length > 0) {
    await runGit(
      top,
      ["checkout", journal.backup, "--pathspec-from-file=-", "--pathspec-file-nul"],
      {
        input: present.join("\0"),
      },
    );
  }
  if (absent.length > 0) {
    await runGit(
      top,
      ["rm", "--cached", "-q", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"],
      { input: absent.join("\0") },
    );
    for (const path of absent) await rm(join(top, path), { force: true });
  }
}

/**
 * Finishes what the journal says was in progress: the main line at the target → completed;
 * at the backup → the paths the merge writes restored to the backup (rolled back; the task's
 * branch still holds the work); moved since (a user commit) → completed when the target is in
 * its history, rolled back otherwise. The journal is cleared.
 */
export async function recoverIntegration(
  repository: Repository,
): Promise<RecoveredIntegration | null> {
  const journal = await readJournal(repository.stateDirectory);
  if (journal === null) return null;
  const top = repository.top;
  const head = await resolveCommit(top, "HEAD");
  let outcome: RecoveredIntegration["outcome"];
  if (head === journal.target) outcome = "completed";
  else if (head === journal.backup) {
    await restoreBackupPaths(repository, journal);
    outcome = "rolled_back";
  } else {
    outcome =
      head !== null && (await isAncestor(top, journal.target, head)) ? "completed" : "rolled_back";
  }
  await clearJournal(repository.stateDirectory);
  return { taskId: journal.taskId, outcome };
}
