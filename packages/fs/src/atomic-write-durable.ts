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
 *   less the umask.
 */
export async function writeNewFileDurably(
  path: string,
  text: string,
  mode?: number,
): Promise<void> {
  const handle = await open(path, "wx");
  try {
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(text, "utf8");
    await handle.sync();
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

/**
 * Flushes a directory's entries (`fsync` on the directory), so a `rename`, `link` or `unlink`
 * in it survives a power loss. Platforms that cannot do this are skipped silently; any other
 * failure (an I/O error) is thrown.
 *
 * @param directory - the directory to flush.
 */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(directory, "r");
  } catch (error) {
    if (unsupportedDirectorySyncCodes.has(errorCodeOf(error) ?? "")) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!unsupportedDirectorySyncCodes.has(errorCodeOf(error) ?? "")) throw error;
  } finally {
    await handle.close();
  }
}
