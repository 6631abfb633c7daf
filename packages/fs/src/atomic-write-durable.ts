import { open } from "node:fs/promises";
import { errorCodeOf } from "./atomic-write-error-code.js";

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
 *   less the umask. It may still be being found out (a promise) while the file is created.
 */
export function writeNewFileDurably(
  path: string,
  text: string,
  mode?: number | Promise<number | undefined>,
): Promise<void> {
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
  mode: number | Promise<number | undefined> | undefined,
  flush: boolean,
): Promise<void> {
  const [opened, bits] = await Promise.allSettled([open(path, "wx"), mode]);
  if (opened.status === "rejected") throw opened.reason;
  const handle = opened.value;
  try {
    if (bits.status === "rejected") throw bits.reason;
    if (bits.value !== undefined) await handle.chmod(bits.value);
    await handle.writeFile(text, "utf8");
    if (flush) await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Flushes an existing file's data to the disk (`fsync`).
 *
 * @param path - the file to flush.
 */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Error codes of platforms and file systems that cannot open or `fsync` a directory (Windows,
 * some network and FUSE file systems). There the rename is as durable as the system allows.
 */
const unsupportedDirectorySyncCodes = new Set(["EISDIR", "EPERM", "EINVAL", "ENOTSUP", "EBADF"]);

/** A directory opened by {@link openDirectory}; `null` where directories cannot be opened. */
export type OpenedDirectory = Awaited<ReturnType<typeof open>> | null;

/**
 * Opens a directory to flush it later with {@link syncOpenedDirectory}: an `fsync` on it
 * flushes the entries it has when the `fsync` runs, so it may be opened before the `rename` it
 * is to make durable. `null` on platforms that cannot open a directory.
 *
 * @param directory - the directory.
 * @throws any other failure (the directory is missing, an I/O error).
 */
export async function openDirectory(directory: string): Promise<OpenedDirectory> {
  try {
    return await open(directory, "r");
  } catch (error) {
    if (unsupportedDirectorySyncCodes.has(errorCodeOf(error) ?? "")) return null;
    throw error;
  }
}

/**
 * Flushes a directory opened by {@link openDirectory} (`fsync`) and closes it. Platforms and
 * file systems that cannot are skipped silently; any other failure (an I/O error) is thrown.
 *
 * @param handle - the opened directory, or `null` (nothing to do).
 */
export async function syncOpenedDirectory(handle: OpenedDirectory): Promise<void> {
  if (handle === null) return;
  try {
    await handle.sync();
  } catch (error) {
    if (!unsupportedDirectorySyncCodes.has(errorCodeOf(error) ?? "")) throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Flushes a directory's entries (`fsync` on the directory), so a `rename`, `link` or `unlink`
 * in it survives a power loss. Platforms that cannot do this are skipped silently; any other
 * failure (an I/O error) is thrown.
 *
 * @param directory - the directory to flush.
 */
export async function syncDirectory(directory: string): Promise<void> {
  await syncOpenedDirectory(await openDirectory(directory));
}
