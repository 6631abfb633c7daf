import { type GitProgress, gitProgress } from "@loop/exec";

/**
 * How `loop run` measures an agent's progress in the project folder: the agent's changes
 * against a baseline taken before each run, in git or (outside git) by a bounded snapshot of the
 * files, the loop's own files left out. The tree as one run left it is the next run's baseline
 * when that run follows within {@link BASELINE_REUSE_MS} (one git run per iteration, not two).
 *
 * @param cwd - the project folder.
 * @param ownFiles - what the loop itself writes (state, logs, `status.json`).
 */
export function projectProgress(cwd: string, ownFiles: readonly string[]): GitProgress {
  return gitProgress({
    cwd,
    exclude: ownFiles,
    outsideGit: "snapshot",
    reuseWithinMs: BASELINE_REUSE_MS,
  });
}

/**
 * How soon after an agent's run the next must start for the tree as that run left it to be the
 * next baseline, without running git again: between two iterations only the loop writes (its
 * own files, left out, and the plan, read afresh), in a few milliseconds. A longer gap — a
 * rate-limit or usage-limit wait — takes a new baseline, so edits made during the wait are not
 * the next agent's progress.
 */
export const BASELINE_REUSE_MS = 1000;

/**
 * What to tell the user at the start of a run when progress cannot be measured in full: the
 * project is not in git and has more files than the snapshot takes. `null` when it can.
 *
 * @param probe - the run's progress probe ({@link projectProgress}).
 */
export async function progressLimitation(probe: GitProgress): Promise<string | null> {
  const snapshot = await probe.before();
  if (!snapshot.repositories.some((repository) => repository.truncated)) return null;
  return "the project is not a git repository and has more files than the 20,000 the loop compares between iterations, so changes beyond them are not seen as progress; `git init` the project to measure all of it";
}
