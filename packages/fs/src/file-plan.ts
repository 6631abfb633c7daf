import { isUtf8 } from "node:buffer";
import { readFileSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { PlanParseError, type PlanSource } from "@loop/core";
import { atomicWriteFile } from "./atomic-write.js";
import { errorCodeOf } from "./atomic-write-error-code.js";
import { PlanNotFoundError } from "./plan-not-found-error.js";
import { createSerialQueue } from "./serial-queue.js";
import { findInvalidUtf8 } from "./utf8-position.js";

/** Decodes a plan's bytes as UTF-8, keeping a byte order mark; invalid bytes are an error. */
function decodePlan(bytes: Buffer, path: string): string {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  const position = findInvalidUtf8(bytes);
  const byte = position === null ? "" : ` (byte 0x${bytes[position.offset]?.toString(16)})`;
  throw new PlanParseError({
    issues: [
      {
        message: `the plan is not valid UTF-8${byte}; save it as UTF-8 (editing it would otherwise change bytes)`,
        ...(position === null ? {} : { line: position.line, column: position.column }),
      },
    ],
    file: path,
  });
}

/** The file a write must replace: the target of a symbolic link, so the link survives. */
async function writeTarget(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return path;
    throw error;
  }
}

/**
 * A `PlanSource` on a markdown file (`plan.md`, `@fix_plan.md`).
 *
 * - **Read afresh.** Every `read` reads the file: the agent or the user may edit it between
 *   iterations, and nothing is cached by size or modification time (checking a box changes
 *   neither the size nor, on file systems with coarse timestamps, the time; the core's parse
 *   cache is keyed by content instead).
 * - **Bytes preserved.** The text is the file's UTF-8 content as it is: a byte order mark
 *   stays (as `\uFEFF`), CRLF line endings stay. Writing the text read gives back the same
 *   bytes. A file that is not valid UTF-8 is refused with a `PlanParseError` pointing at the
 *   first invalid byte, rather than read with replacement characters that a write would save.
 * - **Atomic writes.** `write` replaces the file atomically (temporary file, `fsync`,
 *   `rename`): the agent, an editor or another reader sees the old plan or the new one, whole.
 *   A symbolic link is followed, so the link stays and its target is replaced. Writes of one
 *   `filePlan` happen in call order, and its `read` waits for them.
 *
 * @param path - the plan file.
 * @returns the plan source; `read` throws a {@link PlanNotFoundError} when the file is missing.
 * @throws {TypeError} when `path` is not a non-empty string.
 *
 * @example
 * ```ts
 * const plan = filePlan("plan.md");
 * const text = await plan.read();
 * await plan.write(updatePlan(text, { check: ["TASK-001"] }));
 * ```
 */
export function filePlan(path: string): PlanSource {
  if (typeof path !== "string" || path === "") {
    throw new TypeError(
      `filePlan: \`path\` must be a non-empty string, got ${JSON.stringify(path)}`,
    );
  }
  const writes = createSerialQueue();
  return {
    path,
    async read(): Promise<string> {
      // Read this plan's own writes: wait for the ones still in flight.
      await writes.idle();
      let bytes: Buffer;
      try {
        // One synchronous read, answered from the system's cache in microseconds: the four
        // thread-pool round trips of an asynchronous one (open, stat, read, close) cost more,
        // and the loop reads the plan twice an iteration (as atomicWriteFile's steps).
        bytes = readFileSync(path);
      } catch (error) {
        if (errorCodeOf(error) === "ENOENT") throw new PlanNotFoundError({ path, cause: error });
        throw error;
      }
      return decodePlan(bytes, path);
    },
    write(text: string): Promise<void> {
      if (typeof text !== "string") {
        return Promise.reject(
          new TypeError(`filePlan: the plan text must be a string, got ${typeof text}`),
        );
      }
      return writes.run(async () => atomicWriteFile(await writeTarget(path), text));
    },
  };
}
