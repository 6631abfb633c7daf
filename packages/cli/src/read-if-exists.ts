import { readFile } from "node:fs/promises";

/**
 * A UTF-8 file's text, or `null` when it does not exist. Any other failure (`EACCES`,
 * `EISDIR`…) is thrown.
 *
 * @param path - the file.
 */
export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === "ENOENT") return null;
    throw error;
  }
}
