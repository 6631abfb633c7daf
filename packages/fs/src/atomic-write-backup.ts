import { copyFile, constants as fsConstants, link, lstat } from "node:fs/promises";
import { hardLinkUnsupportedCodes, syncFile } from "./atomic-write-durable.js";
import { errorCodeOf } from "./atomic-write-error-code.js";

/**
 * Makes `destination` a copy of `source`'s current content: a hard link (no data copied; safe
 * because the store never changes a file in place, only replaces it), or a flushed copy where
 * hard links are unsupported.
 *
 * @param source - the file whose content to keep.
 * @param destination - the new name (a temporary one, renamed over the backup later).
 * @param flush - whether a copy is flushed to the disk (`fsync`); default `true`.
 * @returns `false` when `source` does not exist (nothing to keep).
 */
export async function preserveCurrentVersion(
  source: string,
  destination: string,
  flush = true,
): Promise<boolean> {
  try {
    await link(source, destination);
    return true;
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === "ENOENT" && !(await exists(source))) return false;
    if (!hardLinkUnsupportedCodes.has(code ?? "")) throw error;
  }
  try {
    await copyFile(source, destination, fsConstants.COPYFILE_EXCL);
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT" && !(await exists(source))) return false;
    throw error;
  }
  if (flush) await syncFile(destination);
  return true;
}

/** Whether `path` exists; `ENOENT` on the destination's directory must not pass for "no source". */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return false;
    throw error;
  }
}
