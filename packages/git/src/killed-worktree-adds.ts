import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Repository } from "./repository.js";

/** Reads a small file of an administrative folder; `null` when it is missing. */
async function readAdminFile(path: string): Promise<string | null> {
  try {
    return (await readFile(path, "utf8")).trim();
  } catch {
    return null;
  }
}

/**
 * Removes what a `git worktree add` killed before it finished left for a task worktree: its
 * administrative folder (`.git/worktrees/<name>`, still locked `initializing`, perhaps without
 * its `commondir` — then every `git worktree` command fails on it: "failed to read
 * .git/worktrees/<name>/commondir") and the worktree folder, whose files are not the branch's
 * and are never saved. Only folders locked `initializing` that belong to the worktrees root (or
 * name no worktree yet) are touched.
 *
 * @returns the worktree folders removed (or the administrative folders, when they named none).
 */
export async function removeKilledWorktreeAdds(repository: Repository): Promise<string[]> {
  const folder = join(repository.commonDirectory, "worktrees");
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const admin = join(folder, name);
    if ((await readAdminFile(join(admin, "locked"))) !== "initializing") continue;
    const gitdir = await readAdminFile(join(admin, "gitdir"));
    const worktree = gitdir === null ? null : dirname(gitdir);
    if (worktree !== null && dirname(worktree) !== repository.root) continue;
    if (worktree !== null) await rm(worktree, { recursive: true, force: true, maxRetries: 3 });
    await rm(admin, { recursive: true, force: true, maxRetries: 3 });
    removed.push(worktree ?? admin);
  }
  return removed;
}
