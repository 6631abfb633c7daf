import { mkdirSync, statSync, unlinkSync } from "node:fs";
import { rename } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { preserveCurrentVersion } from "./atomic-write-backup.js";
import { syncDirectory, writeNewFile } from "./atomic-write-durable.js";
import { errorCodeOf } from "./atomic-write-error-code.js";
import { runExclusively } from "./atomic-write-queue.js";
import { removeStaleTemporaryFiles, temporaryPathFor } from "./atomic-write-temporary-file.js";

/** Options of {@link atomicWriteFile}. */
export interface AtomicWriteOptions {
  /**
   * Where to keep the version being replaced. When set and the file exists, its current
   * content becomes this backup, replaced atomically too. When the file does not exist yet,
   * an existing backup is left as it is (it is still the last version there was).
   */
  readonly backupPath?: string | null | undefined;
  /**
   * Create the file's directory (and the backup's) when it is missing, with any missing
   * parents, as part of the queued write. Default `false`: a missing directory is an `ENOENT`
   * error.
   */
  readonly createDirectory?: boolean | null | undefined;
  /**
   * Permission bits of a file this write creates (`0o600` for private state), exactly, whatever
   * the umask; a replaced file keeps its own. With `createDirectory`, a directory it creates
   * gets these bits plus search (`0o700` for `0o600`). Default: `0o666` (`0o777` for a
   * directory) less the umask.
   */
  readonly mode?: number | null | undefined;
  /**
   * Whether the write is flushed to the disk (default `true`): the temporary file and the
   * folder are `fsync`ed (steps 2 and 5), so the new version survives a power loss once the
   * call resolves. With `false` neither is: the file is still replaced atomically (a reader,
   * or a writer killed at any instant, finds the whole old or the whole new content, since a
   * killed process loses nothing the system has cached), but a power loss or a system crash
   * may leave an older version or, on file systems that do not order data before renames, an
   * empty file. For files rebuilt by their next write (a display snapshot, a log, derived
   * metrics), where a lost version costs nothing.
   */
  readonly durable?: boolean | null | undefined;
  /**
   * Whether this write looks for crashed writers' temporary files of the file (step 1; default
   * `true`). `false` for a caller that cleans the folder itself: a writer of ever new files
   * (one iteration log per iteration) would otherwise list the folder on every write, since
   * each name is new (the iteration log removes them as it prunes, with
   * `removeStaleTemporaryFilesOf`).
   */
  readonly removeLeftovers?: boolean | null | undefined;
}

/**
 * Replaces a file's content atomically and durably: a reader, or a process killed or a machine
 * losing power at any instant, finds either the whole old content or the whole new one, never a
 * mix, a truncated file or no file.
 *
 * Steps, in this order:
 * 1. On this process's first write of the file (unless `removeLeftovers` is `false`): remove
 *    temporary files left by crashed
 *    writers of it (and of its backup), while the next steps run (they are never this write's
 *    files; the write resolves once they are gone). Leftovers come only from a writer that
 *    crashed, which, while this process writes the file, is one in another process: those are
 *    removed by the next process that writes it. A loop writes its state and logs several
 *    times an iteration, and a listing of the folder on each write cost more than the write.
 * 2. Write the new text to a unique temporary file in the same directory
 *    (`.<name>.<pid>.<random>.tmp`) and `fsync` it.
 * 3. With `backupPath`: hard-link the current file to a temporary name next to the backup (a
 *    copy, `fsync`ed, where hard links are not supported) and `rename` that over the backup.
 * 4. `rename` the temporary file over the target.
 * 5. `fsync` the directory (and the backup's, when it differs).
 *
 * With `durable: false` nothing is `fsync`ed (steps 2 and 5): still atomic, no longer
 * durable against a power loss (see {@link AtomicWriteOptions.durable}).
 *
 * Every step but the `rename`s and `fsync`s (and step 1's listing) is a synchronous system
 * call: each is answered from the system's cache in microseconds, less than the thread-pool
 * round trip an asynchronous call costs. The `fsync`s, which wait on the disk, and the
 * `rename`s, which may too (ext4 starts writing a file renamed over another before the
 * `rename` returns), run in the thread pool, so the event loop never waits on the disk.
 *
 * Why this order: the target is only ever replaced by `rename`, so it is the old or the new
 * version at every instant. Nothing is replaced before the new text is on the disk. The
 * backup is replaced (step 3) before the target (step 4), and also only by `rename`: at every
 * instant it holds a complete earlier version — the one before the old (until step 3), then
 * the old (from step 3 on). A crash between steps 3 and 4 leaves
 * target and backup both holding the old version, which loses nothing. Doing the target first
 * would leave a window where the backup could no longer be taken from it.
 *
 * Calls for the same path within one process run one after another, in the order of the
 * calls (the queue is entered synchronously, before anything is awaited). Calls from
 * several processes may interleave; each still replaces the file atomically (the last `rename`
 * wins) and the backup is always some complete earlier version.
 *
 * The new file keeps the permission bits of the file it replaces. A symbolic link at `path` is
 * replaced by a regular file, not followed: resolve it first (`fs.realpath`) to write through
 * it.
 *
 * On failure the temporary files are removed, the target and backup are untouched, and the
 * Node.js system error is thrown (`EACCES`, `ENOSPC`, `EISDIR`…).
 *
 * @param path - the file to write (created if missing; its directory, and the backup's, must
 *   exist unless `createDirectory` is set).
 * @param text - the new content, written as UTF-8.
 * @param options - {@link AtomicWriteOptions}.
 *
 * @example
 * ```ts
 * await atomicWriteFile("/state/loop_state.json", json, { backupPath: "/state/loop_state.json.bak" });
 * ```
 */
export function atomicWriteFile(
  path: string,
  text: string,
  options?: AtomicWriteOptions | null,
): Promise<void> {
  if (typeof path !== "string" || path === "") {
    throw new TypeError("atomicWriteFile: `path` must be a non-empty string");
  }
  if (typeof text !== "string") {
    throw new TypeError(`atomicWriteFile: \`text\` must be a string, got ${typeof text}`);
  }
  const target = resolve(path);
  const backupPath = options?.backupPath;
  const backup = typeof backupPath === "string" && backupPath !== "" ? resolve(backupPath) : null;
  if (backup === target) {
    throw new TypeError("atomicWriteFile: `backupPath` must differ from `path`");
  }
  const createDirectory = options?.createDirectory === true;
  const mode = readMode(options?.mode);
  const durable = options?.durable !== false;
  const leftovers = options?.removeLeftovers !== false;
  return runExclusively(target, () =>
    replaceFile(target, text, backup, { createDirectory, mode, durable, leftovers }),
  );
}

/** How {@link replaceFile} writes: the options of {@link atomicWriteFile}, checked. */
interface WriteSettings {
  readonly createDirectory: boolean;
  readonly mode: number | undefined;
  readonly durable: boolean;
  /** Whether step 1 runs. */
  readonly leftovers: boolean;
}

function readMode(mode: number | null | undefined): number | undefined {
  if (mode === undefined || mode === null) return undefined;
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o777) {
    throw new TypeError(
      `atomicWriteFile: \`mode\` must be permission bits from 0 to 0o777, got ${String(mode)}`,
    );
  }
  return mode;
}

/** A directory's bits for a file's: each class that may read or write may also search. */
function directoryModeOf(mode: number): number {
  let bits = mode;
  for (const shift of [6, 3, 0]) if (((mode >> shift) & 0o6) !== 0) bits |= 1 << shift;
  return bits;
}

/**
 * The files (with their backups) whose leftovers this process has looked for (step 1). Emptied
 * when it reaches {@link MAX_CLEANED} (a process writing ever new files, such as iteration
 * logs, looks again now and then rather than keeping every name).
 */
const cleaned = new Set<string>();
const MAX_CLEANED = 1000;

/**
 * Step 1: the leftovers of crashed writers of `target` and its backup, on this process's first
 * write of them; never rejects.
 */
async function removeLeftovers(target: string, backup: string | null): Promise<void> {
  const key = backup === null ? target : `${target}\0${backup}`;
  if (cleaned.has(key)) return;
  if (cleaned.size >= MAX_CLEANED) cleaned.clear();
  cleaned.add(key);
  // One listing of the folder finds both files' leftovers (the backup lives beside the file).
  if (backup === null || dirname(backup) === dirname(target)) {
    await removeStaleTemporaryFiles(target, backup ?? undefined);
  } else {
    await removeStaleTemporaryFiles(target);
    await removeStaleTemporaryFiles(backup);
  }
}

async function replaceFile(
  target: string,
  text: string,
  backup: string | null,
  settings: WriteSettings,
): Promise<void> {
  const directoryMode = settings.createDirectory ? directoryModeFor(settings.mode) : null;
  if (directoryMode !== null && backup !== null && dirname(backup) !== dirname(target)) {
    mkdirSync(dirname(backup), { recursive: true, mode: directoryMode.mode });
  }
  const leftovers = settings.leftovers ? removeLeftovers(target, backup) : undefined;
  try {
    await writeAndRename(target, text, backup, settings, directoryMode);
  } finally {
    await leftovers;
  }
}

/** Steps 2 to 5 of {@link atomicWriteFile}. */
async function writeAndRename(
  target: string,
  text: string,
  backup: string | null,
  settings: WriteSettings,
  directoryMode: { readonly mode: number | undefined } | null,
): Promise<void> {
  const { durable } = settings;
  const temporary = temporaryPathFor(target);
  const backupTemporary = backup === null ? null : temporaryPathFor(backup);
  try {
    const bits = permissionsOf(target) ?? settings.mode;
    await writeTemporaryFile(temporary, text, bits, durable, directoryMode);
    if (backup !== null && backupTemporary !== null) {
      const kept = await preserveCurrentVersion(target, backupTemporary, durable);
      if (kept) await rename(backupTemporary, backup);
    }
    await rename(temporary, target);
  } catch (error) {
    removeQuietly(temporary);
    if (backupTemporary !== null) removeQuietly(backupTemporary);
    throw error;
  }
  if (!durable) return;
  await syncDirectory(dirname(target));
  if (backup !== null && dirname(backup) !== dirname(target)) await syncDirectory(dirname(backup));
}

/** With `createDirectory`: the bits of a folder it creates (`undefined`: the default). */
function directoryModeFor(mode: number | undefined): { readonly mode: number | undefined } {
  return { mode: mode === undefined ? undefined : directoryModeOf(mode) };
}

/**
 * Writes the temporary file ({@link writeNewFile}, flushed when `durable`) with the permission
 * `bits` (the replaced file's, else the `mode` option). With `createDirectory`, a missing
 * folder is created and the write tried once more: the folder is there on every write but the
 * first, so it is not created (or checked) ahead of each one.
 */
async function writeTemporaryFile(
  temporary: string,
  text: string,
  bits: number | undefined,
  durable: boolean,
  directoryMode: { readonly mode: number | undefined } | null,
): Promise<void> {
  try {
    await writeNewFile(temporary, text, bits, durable);
  } catch (error) {
    if (directoryMode === null || errorCodeOf(error) !== "ENOENT") throw error;
    mkdirSync(dirname(temporary), { recursive: true, mode: directoryMode.mode });
    await writeNewFile(temporary, text, bits, durable);
  }
}

/** The permission bits of `path`, or `undefined` when it does not exist (or is not readable). */
function permissionsOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone (renamed into place, or never created).
  }
}
