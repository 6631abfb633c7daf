import { runGit, splitNul } from "./run-git.js";

/**
 * The paths of a working tree that differ from its `HEAD` (staged, unstaged, or untracked and
 * not ignored), relative to its top level. Reads only: `GIT_OPTIONAL_LOCKS=0` keeps `git
 * status` from refreshing the index.
 */
export async function dirtyPaths(cwd: string): Promise<string[]> {
  const result = await runGit(cwd, [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--no-renames",
    "--ignore-submodules=none",
  ]);
  return splitNul(result.stdout).map((entry) => entry.slice(3));
}

/** Whether two paths are the same file, or one is a folder holding the other. */
export function pathsOverlap(first: string, second: string): boolean {
  return first === second || first.startsWith(`${second}/`) || second.startsWith(`${first}/`);
}
