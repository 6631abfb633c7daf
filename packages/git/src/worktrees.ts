import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type AdministrationPriority, createAdministrationQueue } from "./administration-queue.js";
import type { Repository } from "./repository.js";
import { type RunGitOptions, runGit, splitNul } from "./run-git.js";

/**
 * Git reads every worktree's administrative folder in `git worktree add`, `list`, `remove`,
 * `prune` and when checking a branch out, and fails on one another command is creating or
 * removing at that moment ("failed to read .git/worktrees/<name>/commondir"): such commands run
 * one at a time per repository (in this process). Removing the worktree of work already saved
 * is `deferred`: it waits while a worktree is to be made, so a task's agent never waits for
 * another's cleanup.
 */
const administration = createAdministrationQueue();

/** Runs `task` while no other worktree administration of the repository runs. */
export function administer<T>(
  repository: Repository,
  task: () => Promise<T>,
  priority: AdministrationPriority = "now",
): Promise<T> {
  return administration.run(repository.commonDirectory, task, priority);
}

/** Runs a git command that reads or changes the worktrees' administrative folders. */
export function runWorktreeGit(
  repository: Repository,
  cwd: string,
  args: readonly string[],
  options?: RunGitOptions,
): ReturnType<typeof runGit> {
  return administer(repository, () => runGit(cwd, args, options));
}

/** One entry of `git worktree list`. */
export interface WorktreeEntry {
  /** Its path, as git recorded it. */
  readonly path: string;
  /** Its `HEAD` commit (empty before the first checkout). */
  readonly head: string;
  /** The branch checked out (`refs/heads/...`); `null` when detached. */
  readonly branch: string | null;
  /** Why it is locked (`initializing` while `git worktree add` runs); `null` when not locked. */
  readonly locked: string | null;
}

/** Every worktree of the repository (the main one first). */
export async function listWorktrees(repository: Repository): Promise<WorktreeEntry[]> {
  const result = await runWorktreeGit(repository, repository.top, [
    "worktree",
    "list",
    "--porcelain",
    "-z",
  ]);
  const entries: WorktreeEntry[] = [];
  let current: { path: string; head: string; branch: string | null; locked: string | null } | null =
    null;
  for (const field of [...splitNul(result.stdout), ""]) {
    if (field === "") {
      if (current !== null) entries.push(current);
      current = null;
      continue;
    }
    const space = field.indexOf(" ");
    const key = space === -1 ? field : field.slice(0, space);
    const value = space === -1 ? "" : field.slice(space + 1);
    if (key === "worktree") current = { path: value, head: "", branch: null, locked: null };
    else if (current === null) continue;
    else if (key === "HEAD") current.head = value;
    else if (key === "branch") current.branch = value;
    else if (key === "locked") current.locked = value;
  }
  return entries;
}

/** The administrative folder (`.git/worktrees/<name>`) of the worktree at `path`, if any. */
export async function adminFolder(repository: Repository, path: string): Promise<string | null> {
  const folder = join(repository.commonDirectory, "worktrees");
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return null;
  }
  for (const name of names) {
    try {
      const gitdir = (await readFile(join(folder, name, "gitdir"), "utf8")).trim();
      if (dirname(gitdir) === path) return join(folder, name);
    } catch {
      // Not a complete administrative folder: not this one.
    }
  }
  return null;
}

/**
 * Removes the worktree at `path`, whatever state it is in: `git worktree remove --force
 * --force` (its work was saved, or is not wanted), and when git refuses (its `.git` is gone, a
 * killed removal left half a folder) the folder goes by hand, the lock with it, then
 * `git worktree prune`.
 */
export function removeWorktree(repository: Repository, path: string): Promise<void> {
  return administer(repository, () => removeWorktreeNow(repository, path), "deferred");
}

/** {@link removeWorktree}, inside the administration queue. */
async function removeWorktreeNow(repository: Repository, path: string): Promise<void> {
  const removed = await runGit(repository.top, ["worktree", "remove", "--force", "--force", path], {
    allowExitCodes: [0, 128],
  });
  if (removed.exitCode === 0) return;
  const admin = await adminFolder(repository, path);
  if (admin !== null) await rm(join(admin, "locked"), { force: true });
  await rm(path, { recursive: true, force: true, maxRetries: 3 });
  await runGit(repository.top, ["worktree", "prune"]);
}
