import { randomBytes } from "node:crypto";
import { readdir, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { isProcessAlive } from "./process-alive.js";

/**
 * A temporary file older than this is removed whatever its pid says (the pid may have been
 * recycled by an unrelated process): one hour.
 */
export const temporaryFileMaxAgeMs = 60 * 60 * 1000;

/** This process's random start for temporary names (48 bits), drawn on first use. */
let nameBase: bigint | null = null;
/** How many temporary names this process has made. */
let nameCount = 0n;
const NAME_SPACE = 1n << 48n;

/**
 * A unique temporary path next to `target`, in the same directory (so a `rename` to `target`
 * stays on one file system and is atomic): `.<name>.<pid>.<12 hex digits>.tmp`. The leading dot
 * hides it, and no reader ever opens it: readers open only their exact file names.
 *
 * The 12 hex digits are a random 48-bit start drawn once per process plus a count of the names
 * it made: unique within the process without drawing random bytes for every write, and apart
 * from a crashed earlier process that had the same pid (its start was drawn independently).
 * The file is created with `O_EXCL` anyway, so a clash would fail a write, never share a file.
 *
 * @param target - the file the temporary file will become.
 * @returns the temporary path.
 */
export function temporaryPathFor(target: string): string {
  nameBase ??= BigInt(`0x${randomBytes(6).toString("hex")}`);
  const suffix = ((nameBase + nameCount) % NAME_SPACE).toString(16).padStart(12, "0");
  nameCount += 1n;
  return join(dirname(target), `.${basename(target)}.${process.pid}.${suffix}.tmp`);
}

/**
 * What a directory entry named by {@link temporaryPathFor} belongs to: the base name of the
 * file it would become, and its writer's pid; `undefined` when `name` is not a temporary file.
 *
 * @param name - a directory entry.
 */
export function parseTemporaryName(
  name: string,
): { readonly target: string; readonly pid: number } | undefined {
  const match = /^\.(.+)\.(\d{1,10})\.[0-9a-f]{12}\.tmp$/.exec(name);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { target: match[1], pid: Number(match[2]) };
}

/**
 * The writer's pid of a temporary file of `target` named by {@link temporaryPathFor}, or
 * `undefined` when `name` is not one.
 *
 * @param name - a directory entry.
 * @param target - the file the temporary files belong to.
 */
export function temporaryFileWriterPid(name: string, target: string): number | undefined {
  const parsed = parseTemporaryName(name);
  return parsed?.target === basename(target) ? parsed.pid : undefined;
}

/**
 * Removes the temporary files of `target` left by writers that crashed: those whose writer pid
 * is not alive on this machine, and any older than {@link temporaryFileMaxAgeMs}. Temporary
 * files of live writers (this process included) are left alone, so concurrent writers are not
 * disturbed. Best-effort: failures to list or remove are ignored.
 *
 * Assumes writers of one directory run on one machine. A writer on another machine sharing the
 * directory (a network file system) could lose its temporary file; its write then fails with an
 * error, and never leaves a torn file.
 *
 * @param target - the file whose temporary files to clean.
 * @param sibling - another file in the same folder (a backup) whose temporary files to clean in
 *   the same listing of the folder.
 * @returns how many files were removed.
 */
export async function removeStaleTemporaryFiles(
  target: string,
  sibling?: string | undefined,
): Promise<number> {
  const directory = dirname(target);
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return 0;
  }
  const targets = new Set([basename(target)]);
  if (sibling !== undefined) targets.add(basename(sibling));
  return removeStaleTemporaryFilesOf(directory, names, (name) => targets.has(name));
}

/**
 * Removes, from a listing of `directory` the caller has made, the temporary files left by
 * crashed writers (as {@link removeStaleTemporaryFiles} decides) of every file `belongs`
 * accepts: one listing serves a caller that lists the folder anyway, for files of ever new
 * names. Best-effort.
 *
 * @param directory - the folder listed.
 * @param names - its entries.
 * @param belongs - whether a file of this base name is one whose leftovers to remove.
 * @returns how many files were removed.
 */
export async function removeStaleTemporaryFilesOf(
  directory: string,
  names: readonly string[],
  belongs: (target: string) => boolean,
): Promise<number> {
  let removed = 0;
  for (const name of names) {
    const parsed = parseTemporaryName(name);
    if (parsed === undefined || !belongs(parsed.target)) continue;
    const path = join(directory, name);
    if (isProcessAlive(parsed.pid) && !(await isOlderThan(path, temporaryFileMaxAgeMs))) continue;
    try {
      await unlink(path);
      removed += 1;
    } catch {
      // Removed by another cleaner, or not removable: either way not ours to fail on.
    }
  }
  return removed;
}

async function isOlderThan(path: string, ageMs: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(path)).mtimeMs > ageMs;
  } catch {
    return false;
  }
}
