import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Suffix of the temporary files {@link writeJsonAtomically} writes before its rename. */
export const temporarySuffix = ".loop-tmp";

/**
 * Writes `value` as JSON to `path` atomically: a temporary file in the same folder, then a
 * `rename` over the target, so a process killed at any instant leaves the old file or the new
 * one. (No `fsync`: the records must survive a killed process, which they do; git does not
 * `fsync` its refs by default either.)
 */
export async function writeJsonAtomically(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}${temporarySuffix}`,
  );
  try {
    await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Reads a JSON file; `null` when it does not exist or does not hold JSON. */
export async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
