import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { atomicWriteFile } from "@loop/fs";
import { readTextIfExists } from "../read-if-exists.js";

/**
 * What happened to a file `loop init` writes:
 * - `created` — it did not exist and was written;
 * - `kept` — it exists and was left as it is (no `--force`);
 * - `overwritten` — it existed and `--force` replaced it;
 * - `updated` — a generated file (the JSON Schema) was out of date and was replaced;
 * - `unchanged` — it already holds exactly the text that would be written (with `--force`, or a
 *   generated file that is up to date).
 */
export type ScaffoldOutcome = "created" | "kept" | "overwritten" | "updated" | "unchanged";

/**
 * How an existing file is treated:
 * - `keep` — left as it is;
 * - `overwrite` — replaced (`--force`);
 * - `refresh` — replaced when its text differs: for generated files nobody edits by hand.
 */
export type ScaffoldMode = "keep" | "overwrite" | "refresh";

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Writes one file of the scaffold, creating its folder. A new file is created exclusively
 * (`wx`), so a file that appears meanwhile is never clobbered; a replaced one is written
 * atomically.
 *
 * @param path - the file, absolute.
 * @param text - its new content.
 * @param mode - what to do when it exists.
 * @returns what happened.
 * @throws the Node.js system error when the file cannot be read or written (`EACCES`, `EISDIR`…).
 */
export async function writeScaffoldFile(
  path: string,
  text: string,
  mode: ScaffoldMode,
): Promise<ScaffoldOutcome> {
  await mkdir(dirname(path), { recursive: true });
  const existing = await readTextIfExists(path);
  if (existing === null) {
    try {
      await writeFile(path, text, { encoding: "utf8", flag: "wx" });
      return "created";
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
      return mode === "keep" ? "kept" : writeScaffoldFile(path, text, mode);
    }
  }
  if (mode === "keep") return "kept";
  if (existing === text) return "unchanged";
  await atomicWriteFile(path, text);
  return mode === "overwrite" ? "overwritten" : "updated";
}
