import { copyFileSync, constants as fsConstants, linkSync, lstatSync } from "node:fs";
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
    linkSync(source, destination);
    return true;
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === "ENOENT" && !exists(source)) return false;
    if (!hardLinkUnsupportedCodes.has(code ?? "")) throw error;
  }
  try {
    copyFileSync(source, destination, fsConstants.COPYFILE_EXCL);
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT" && !exists(source)) return false;
    throw error;
  }
  if (flush) await syncFile(destination);
  return true;
}

/** Whether `path` exists; `ENOENT` on the destination's directory must not pass for "no source". */
function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return false;
    throw error;
  }
}
