import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Repository } from "./repository.js";

/** How long a lock file may stay before it counts as left by a killed git, by default. */
export const DEFAULT_LOCK_TIMEOUT_MS = 2000;
const pollMs = 50;

/** The `*.lock` files directly in `folder`. */
async function locksIn(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder))
      .filter((name) => name.endsWith(".lock"))
      .map((name) => join(folder, name));
  } catch {
    return [];
  }
}

/** The `*.lock` files anywhere under `folder`. */
async function locksUnder(folder: string): Promise<string[]> {
  try {
    const names = await readdir(folder, { recursive: true });
    return names.filter((name) => name.endsWith(".lock")).map((name) => join(folder, name));
  } catch {
    return [];
  }
}

/**
 * The lock files git may have left: in the common git directory (`packed-refs.lock`,
 * `config.lock`, the main working tree's `index.lock`, `HEAD.lock`), in the administrative
 * folder of every worktree (their `index.lock`, `HEAD.lock`), and under `refs/`.
 */
async function lockFiles(repository: Repository): Promise<string[]> {
  const folders = [repository.commonDirectory, repository.gitDirectory];
  const worktrees = join(repository.commonDirectory, "worktrees");
  try {
    for (const name of await readdir(worktrees)) folders.push(join(worktrees, name));
  } catch {
    // No linked worktree.
  }
  const locks = new Set<string>();
  for (const folder of folders) for (const lock of await locksIn(folder)) locks.add(lock);
  for (const lock of await locksUnder(join(repository.commonDirectory, "refs"))) locks.add(lock);
  return [...locks];
}

/**
 * Removes the lock files a git killed in the middle of a command left (a commit's
 * `index.lock`, a ref's `.lock`), after waiting up to `timeoutMs` for them to go on their own
 * (polling): recovery runs while no other loop uses the repository, so a lock that stays that
 * long belongs to no running git.
 *
 * @returns the lock files removed.
 */
export async function removeStaleLocks(
  repository: Repository,
  timeoutMs: number,
): Promise<string[]> {
  let locks = await lockFiles(repository);
  for (let waited = 0; locks.length > 0 && waited < timeoutMs; waited += pollMs) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, timeoutMs - waited)));
    locks = locks.filter((lock) => existsSync(lock));
  }
  for (const lock of locks) await rm(lock, { force: true });
  return locks;
}
