import { readFile } from "node:fs/promises";
import { findInvalidUtf8 } from "@loop/fs";
import { describeFileError } from "../file-error.js";

/** What {@link readTextFile} found. */
export type TextFileRead =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "missing" }
  | { readonly kind: "unreadable"; readonly reason: string }
  | {
      readonly kind: "not-utf8";
      /** Where the first invalid byte is, and the byte. */
      readonly line: number;
      readonly column: number;
      readonly byte: number;
    };

/**
 * Reads a UTF-8 file for checking, never throwing: a missing file, an unreadable one
 * (`EACCES`, `EISDIR`…) and one that is not valid UTF-8 (with where) are answers, for the
 * caller to report as problems.
 *
 * @param path - the file, absolute.
 */
export async function readTextFile(path: string): Promise<TextFileRead> {
  try {
    // Decoded as loop run decodes it: a file that is not UTF-8 is refused there, so here too.
    const bytes = await readFile(path);
    const invalid = findInvalidUtf8(bytes);
    if (invalid === null) return { kind: "text", text: bytes.toString("utf8") };
    const byte = bytes[invalid.offset] ?? 0;
    return { kind: "not-utf8", line: invalid.line, column: invalid.column, byte };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") return { kind: "missing" };
    return { kind: "unreadable", reason: describeFileError(error) };
  }
}
