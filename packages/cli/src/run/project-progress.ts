import { type GitProgress, gitProgress } from "@loop/exec";

/**
 * How `loop run` measures an agent's progress in the project folder: the agent's changes
 * against a baseline taken before each run, in git or (outside git) by a bounded snapshot of the
 * files, the loop's own files left out.
 *
 * @param cwd - the project folder.
 * @param ownFiles - what the loop itself writes (state, logs, `status.json`).
 */
export function projectProgress(cwd: string, ownFiles: readonly string[]): GitProgress {
  return gitProgress({ cwd, exclude: ownFiles, outsideGit: "snapshot" });
}

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
