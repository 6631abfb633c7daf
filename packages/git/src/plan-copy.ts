import { isUtf8 } from "node:buffer";
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { PlanParseError, type PlanSource } from "@loop/core";
import { temporarySuffix } from "./atomic-json.js";

/** Whether `name` is a temporary file of {@link writePlanCopy} for the plan file `planName`. */
function isPlanTemporary(name: string, planName: string): boolean {
  return name.startsWith(`.${planName}.`) && name.endsWith(temporarySuffix);
}

/**
 * Replaces the plan copy atomically (a temporary file next to it, then `rename`). A temporary
 * file left by a killed write is removed by {@link removePlanTemporaries} before each save, so
 * it never reaches a commit.
 */
export async function writePlanCopy(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}${temporarySuffix}`,
  );
  try {
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Reads the plan copy; `null` when it is missing. */
export async function readPlanCopy(path: string): Promise<string | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  if (!isUtf8(bytes)) {
    throw new PlanParseError({
      issues: [{ message: "the plan copy is not valid UTF-8" }],
      file: path,
    });
  }
  return bytes.toString("utf8");
}

/** Removes temporary files of killed plan-copy writes next to the plan copy. */
export async function removePlanTemporaries(path: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return;
  }
  const planName = basename(path);
  for (const name of names) {
    if (isPlanTemporary(name, planName)) await rm(join(dirname(path), name), { force: true });
  }
}

/**
 * The plan copy of a task workspace as a `PlanSource`. Writes go through `serialize` (the
 * task's queue), so they never overlap a save of the same workspace.
 */
export function planCopySource(
  path: string,
  serialize: (task: () => Promise<void>) => Promise<void>,
): PlanSource {
  return {
    path,
    async read(): Promise<string> {
      const text = await readPlanCopy(path);
      if (text === null) {
        throw new PlanParseError({ issues: [{ message: "the plan copy is missing" }], file: path });
      }
      return text;
    },
    write(text: string): Promise<void> {
      if (typeof text !== "string") {
        return Promise.reject(
          new TypeError(`plan copy: the text must be a string, got ${typeof text}`),
        );
      }
      return serialize(() => writePlanCopy(path, text));
    },
  };
}
