import { realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { GitProgressSnapshot, GitRepositorySnapshot } from "./git-progress.js";
import { progressExclusions } from "./progress-exclusions.js";
import { fingerprintsOf } from "./tree-snapshot.js";

/** What {@link rebaseSnapshot} needs of the probe. */
export interface RebaseSettings {
  /** The loop's own files, as `gitProgress` was given them. */
  readonly exclude: readonly string[];
  /** A directory's repository top level (cached by the probe); `null` outside git. */
  readonly topOf: (cwd: string) => Promise<string | null>;
}

/** `path` as its real path (symbolic links resolved), or only made absolute when it is missing. */
async function realPathOf(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    return await realpath(absolute);
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

async function rebaseRepository(
  snapshot: GitRepositorySnapshot,
  rewritten: readonly string[],
  settings: RebaseSettings,
): Promise<GitRepositorySnapshot> {
  if (snapshot.kind === "none" || rewritten.length === 0) return snapshot;
  const base =
    snapshot.kind === "git" ? ((await settings.topOf(snapshot.cwd)) ?? snapshot.cwd) : snapshot.cwd;
  const excluded = progressExclusions(snapshot.cwd, base, settings.exclude);
  const realBase = await realPathOf(base);
  const paths = rewritten
    .map((path) => inside(realBase, path))
    .filter((path): path is string => path !== null && !excluded(path));
  if (paths.length === 0) return snapshot;
  const prints = await fingerprintsOf(base, paths);
  if (snapshot.kind === "tree") {
    const fingerprints = new Map(snapshot.fingerprints);
    for (const [path, print] of prints) {
      if (print === "missing") fingerprints.delete(path);
      else fingerprints.set(path, print);
    }
    return { ...snapshot, fingerprints };
  }
  // git: the status code the loop's write gave these paths is unknown without another git run,
  // so they leave the status and are compared by fingerprint alone.
  const status = new Map(snapshot.status);
  const fingerprints = new Map(snapshot.fingerprints);
  for (const path of paths) {
    status.delete(path);
    fingerprints.delete(path);
  }
  return { ...snapshot, status, fingerprints, rewritten: prints };
}

/**
 * The baseline of the next run, from the tree as the last run's `after` read it: the same tree,
 * except for the files the caller rewrote since (the loop's plan edits), which are read afresh
 * (a stat each) so that what the loop wrote is not the next run's progress. In a repository
 * those files are then compared by fingerprint alone (`rewritten`); in a `tree` snapshot their
 * fingerprints are replaced. Files outside the directories, or among the loop's own, are
 * ignored.
 *
 * @param snapshot - what the last `after` read.
 * @param rewritten - the files the caller wrote since, absolute or relative to this process's
 *   working directory.
 * @param settings - the probe's exclusions and top levels.
 */
export async function rebaseSnapshot(
  snapshot: GitProgressSnapshot,
  rewritten: readonly string[],
  settings: RebaseSettings,
): Promise<GitProgressSnapshot> {
  const paths = await Promise.all(rewritten.map(realPathOf));
  const repositories = await Promise.all(
    snapshot.repositories.map((repository) => rebaseRepository(repository, paths, settings)),
  );
  return { repositories };
}
