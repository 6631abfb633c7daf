import { readFile } from "node:fs/promises";
import { describeFileError } from "../file-error.js";

/** What {@link readTextFile} found. */
export type TextFileRead =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "missing" }
  | { readonly kind: "unreadable"; readonly reason: string };

/**
 * Reads a UTF-8 file for checking, never throwing: a missing file and an unreadable one
 * (`EACCES`, `EISDIR`…) are answers, for the caller to report as problems.
 *
 * @param path - the file, absolute.
 */
export async function readTextFile(path: string): Promise<TextFileRead> {
  try {
    return { kind: "text", text: await readFile(path, "utf8") };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") return { kind: "missing" };
    return { kind: "unreadable", reason: describeFileError(error) };
  }
}
