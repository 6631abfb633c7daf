import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { GitRepositorySnapshot } from "./git-progress.js";
import { progressExclusions } from "./progress-exclusions.js";
import { fingerprintsOf } from "./tree-snapshot.js";

/** What {@link rebaseRepository} needs of the probe. */
export interface RebaseSettings {
  /** The loop's own files, as `gitProgress` was given them. */
  readonly exclude: readonly string[];
  /** A directory's repository top level (cached by the probe); `null` outside git. */
  readonly topOf: (cwd: string) => Promise<string | null>;
}

/** `path` as its real path (symbolic links resolved), or only made absolute when it is missing. */
function realPathOf(path: string): string {
  const absolute = resolve(path);
  try {
    // Synchronous, as the fingerprints' stats: answered from the system's cache.
    return realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}

/** `path` relative to `base` with `/` separators; `null` when it is not inside `base`. */
function inside(base: string, path: string): string | null {
  const within = relative(base, path);
  if (within === "" || within === ".." || within.startsWith(`..${sep}`) || isAbsolute(within)) {
    return null;
  }
  return within.split(sep).join("/");
}

/** The files of `rewritten` inside the repository at `top`, relative to it, not the loop's own. */
function rewrittenInside(
  snapshot: GitRepositorySnapshot,
  top: string,
  rewritten: readonly string[],
  settings: RebaseSettings,
): string[] {
  if (rewritten.length === 0) return [];
  const excluded = progressExclusions(snapshot.cwd, top, settings.exclude);
  const [realTop, ...paths] = [top, ...rewritten].map(realPathOf);
  return paths
    .map((path) => inside(realTop ?? top, path))
    .filter((path): path is string => path !== null && !excluded(path));
}

/**
 * The baseline of a repository's next run, from what the last run's `after` read (`git status`
 * and the fingerprint of every path it listed), without running git again.
 *
 * Nothing the agent did happens between its `after` and the next `before`: its process group is
 * gone. What changes there is someone else's — the loop's plan edits (`rewritten`), the loop's
 * own output when it is redirected into the project (`loop run 2> run.log`), another terminal —
 * and must not be the next run's progress. So every path the status listed is looked at again
 * (a stat each, as a fresh baseline would), and so is each `rewritten` file; one whose
 * fingerprint changed, or a `rewritten` one, leaves the status, since its status code now is
 * unknown, and is compared by fingerprint alone (`rewritten` of the snapshot). What stays unseen
 * is a file git did not list (unchanged, or new) that someone else changes in that gap of a few
 * milliseconds: it counts as the next run's, as it would while the agent runs.
 *
 * @param snapshot - the repository as the last `after` read it.
 * @param rewritten - the files the caller wrote since, absolute or relative to this process's
 *   working directory.
 * @param settings - the probe's exclusions and top levels.
 */
export async function rebaseRepository(
  snapshot: GitRepositorySnapshot,
  rewritten: readonly string[],
  settings: RebaseSettings,
): Promise<GitRepositorySnapshot> {
  const top = (await settings.topOf(snapshot.cwd)) ?? snapshot.cwd;
  const written = rewrittenInside(snapshot, top, rewritten, settings);
  const now = fingerprintsOf(top, snapshot.status.keys());
  const writtenNow = fingerprintsOf(top, written);
  const status = new Map(snapshot.status);
  const fingerprints = new Map(snapshot.fingerprints);
  const unknown = new Map(writtenNow);
  for (const [path, print] of now) {
    if (print === snapshot.fingerprints.get(path) && !unknown.has(path)) continue;
    unknown.set(path, print);
  }
  for (const path of unknown.keys()) {
    status.delete(path);
    fingerprints.delete(path);
  }
  return { ...snapshot, status, fingerprints, rewritten: unknown };
}
