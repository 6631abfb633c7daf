import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** A conflict marker line: `<<<<<<<` or `>>>>>>>` (then a space or the end), or `=======`. */
const markerLine = /^(?:<{7}(?: |$)|>{7}(?: |$)|={7}$)/m;

/** What a conflicted file holds after a resolver ran. */
export type ConflictFileState = "resolved" | "markers" | "binary";

/**
 * Looks at a conflicted file in a working tree: `markers` when a line starts with a conflict
 * marker (`<<<<<<<`, `=======`, `>>>>>>>`), `binary` when it holds a NUL byte (git writes no
 * markers into binary files, so only staging it says it was resolved), `resolved` otherwise
 * (also when it was deleted).
 */
export async function conflictFileState(top: string, path: string): Promise<ConflictFileState> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(top, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return "resolved";
    throw error;
  }
  if (bytes.includes(0)) return "binary";
  return markerLine.test(bytes.toString("utf8").replaceAll("\r\n", "\n")) ? "markers" : "resolved";
}
