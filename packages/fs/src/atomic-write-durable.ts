import { closeSync, fchmodSync, fsync, openSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { errorCodeOf } from "./atomic-write-error-code.js";

/**
 * `fsync` of an open descriptor, in the thread pool: the one step here that waits on the disk.
 * The others are synchronous, for the reason `atomicWriteFile`'s comment gives.
 */
const fsyncInPool = promisify(fsync);

/**
 * `link` failures that mean "this file system has no hard links" (some network, FUSE and
 * Windows file systems): callers fall back to a copy or to `O_CREAT | O_EXCL`.
 */
export const hardLinkUnsupportedCodes: ReadonlySet<string> = new Set([
  "EPERM",
  "ENOTSUP",
  "EOPNOTSUPP",
  "EXDEV",
  "EMLINK",
  "ENOSYS",
]);

/**
 * Creates `path` (which must not exist: `wx`), writes `text` as UTF-8 and flushes it to the
 * disk (`fsync`) before closing, so a later `rename` or `link` publishes complete data.
 *
 * @param path - the file to create.
 * @param text - its content.
 * @param mode - permission bits to give it (exactly, whatever the umask); default: `0o666`
 *   less the umask.
 */
export function writeNewFileDurably(path: string, text: string, mode?: number): Promise<void> {
  return writeNewFile(path, text, mode, true);
}

/**
 * Creates `path` (which must not exist: `wx`) and writes `text` as UTF-8; with `flush`, flushes
 * it to the disk (`fsync`) before closing ({@link writeNewFileDurably}). Without, the data is in
 * the system's cache when it resolves: other processes read it whole, a killed writer loses
 * none of it, only a power loss or a system crash can.
 *
 * @param path - the file to create.
 * @param text - its content.
 * @param mode - permission bits to give it, as {@link writeNewFileDurably}'s.
 * @param flush - whether to `fsync` it before closing.
 */
export async function writeNewFile(
  path: string,
  text: string,
  mode: number | undefined,
  flush: boolean,
): Promise<void> {
  const descriptor = openSync(path, "wx");
  try {
    if (mode !== undefined) fchmodSync(descriptor, mode);
    writeFileSync(descriptor, text, "utf8");
    if (flush) await fsyncInPool(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Flushes an existing file's data to the disk (`fsync`).
 *
 * @param path - the file to flush.
 */
export async function syncFile(path: string): Promise<void> {
  const descriptor = openSync(path, "r+");
  try {
    await fsyncInPool(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Error codes of platforms and file systems that cannot open or `fsync` a directory (Windows,
 * some network and FUSE file systems). There the rename is as durable as the system allows.
 */
const unsupportedDirectorySyncCodes = new Set(["EISDIR", "EPERM", "EINVAL", "ENOTSUP", "EBADF"]);

/**
 * Flushes a directory's entries (`fsync` on the directory), so a `rename`, `link` or `unlink`
 * in it survives a power loss. Platforms and file systems that cannot (a directory that cannot
 * be opened or flushed) are skipped silently; any other failure (the directory is missing, an
 * I/O error) is thrown.
 *
 * @param directory - the directory to flush.
 */
export async function syncDirectory(directory: string): Promise<void> {
  let descriptor: number;
  try {
    descriptor = openSync(directory, "r");
  } catch (error) {
    if (unsupportedDirectorySyncCodes.has(errorCodeOf(error) ?? "")) return;
    throw error;
  }
  try {
    await fsyncInPool(descriptor);
  } catch (error) {
    if (!unsupportedDirectorySyncCodes.has(errorCodeOf(error) ?? "")) throw error;
  } finally {
    closeSync(descriptor);
  }
}
