import { errorMessage } from "./error-message.js";

/** What a file-system error code means, in words for a user. */
const MEANINGS: Readonly<Record<string, string>> = {
  ENOENT: "not found",
  EISDIR: "is a folder, not a file",
  ENOTDIR: "a part of its path is a file, not a folder",
  EACCES: "permission denied",
  EPERM: "not permitted",
  ELOOP: "too many symbolic links (a link loop?)",
  ENAMETOOLONG: "the path is too long",
  EMFILE: "too many open files",
  ENOSPC: "no space left on the device",
  EROFS: "the file system is read-only",
};

/**
 * Why a file could not be read or written, for a user: `not found`, `is a folder, not a file`,
 * `permission denied` — the Node.js code's meaning, never its raw message (`EISDIR: illegal
 * operation on a directory, read`). Other errors keep their message without a leading code.
 *
 * @param error - what `node:fs` threw.
 */
export function describeFileError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && MEANINGS[code] !== undefined) return MEANINGS[code];
  return errorMessage(error).replace(/^E[A-Z]+: /, "");
}
