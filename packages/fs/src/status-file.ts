import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Diagnostic } from "@loop/core";
import type { z } from "zod";
import { atomicWriteFile } from "./atomic-write.js";
import { errorCodeOf } from "./atomic-write-error-code.js";
import { requirePathOption } from "./path-option.js";
import { PRIVATE_FILE_MODE } from "./private-mode.js";
import { createSerialQueue } from "./serial-queue.js";
import { StatusFileError } from "./status-file-error.js";
import { type Status, StatusReadSchema, StatusWriteSchema } from "./status-file-schema.js";

/** Options of {@link createStatusFile}. */
export interface StatusFileOptions {
  /** The status file (`status.json`). Missing parent folders are created on the first write. */
  readonly path: string;
}

/** `status.json`: the loop's live state, for monitors (`loop monitor`, ralph_monitor.sh). */
export interface StatusFile {
  /** The status file, as given. */
  readonly path: string;
  /**
   * Validates `status` and replaces the file with it atomically (a monitor reading at any
   * instant sees the old or the new status, whole). Written as indented JSON, fields in
   * ralph_loop.sh's order. Not flushed to the disk (`fsync`): a killed loop leaves its last
   * status, a power loss may leave an older one (or, on some file systems, an empty file).
   *
   * @throws {StatusFileError} when a field is missing, unknown or invalid (nothing is written).
   */
  write(status: Status): Promise<void>;
  /**
   * Reads the status, or `null` when the file does not exist. Fields this version does not
   * know (from a newer writer) are kept.
   *
   * @throws {StatusFileError} when the file is not JSON or not a valid status.
   */
  read(): Promise<Status | null>;
}

/** The diagnostics of a failed schema check: one per problem, with its field path. */
function schemaDiagnostics(error: z.ZodError): Diagnostic[] {
  return error.issues.map((issue) => ({
    message: issue.message,
    path: issue.path.filter((segment): segment is string | number => typeof segment !== "symbol"),
  }));
}

/** The diagnostic of a JSON syntax error, at its line:column when the message gives one. */
function syntaxDiagnostic(error: unknown, text: string): Diagnostic {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position === undefined) return { message: `not JSON: ${message}` };
  const before = text.slice(0, Number(position));
  const line = before.split("\n").length;
  const column = Number(position) - before.lastIndexOf("\n");
  return { message: `not JSON: ${message}`, line, column };
}

/**
 * How `status.json` is written: atomically, not flushed to the disk. It is a display snapshot,
 * replaced on every update and rebuilt from the loop's state: a power loss that takes its last
 * version costs nothing, and its `fsync`s cost the loop time on every iteration.
 */
const STATUS_WRITE = { mode: PRIVATE_FILE_MODE, durable: false } as const;

/** Writes `text` to `path` atomically, creating the parent folders when they are missing. */
async function writeCreatingFolders(path: string, text: string): Promise<void> {
  try {
    await atomicWriteFile(path, text, STATUS_WRITE);
  } catch (error) {
    if (errorCodeOf(error) !== "ENOENT") throw error;
    await mkdir(dirname(path), { recursive: true });
    await atomicWriteFile(path, text, STATUS_WRITE);
  }
}

/**
 * Creates the adapter of `status.json`, the file ralph_loop.sh writes on every iteration
 * for its monitor: `timestamp`, `loop_count`, `calls_made_this_hour`, `max_calls_per_hour`,
 * `last_action`, `status`, `exit_reason`, `next_reset`, and optionally `current_task`,
 * `tasks_done`, `tasks_total`, `cost_usd`, `wait_until`. See `docs/state-and-logs.md`.
 *
 * @param options - the file.
 * @returns the status file.
 * @throws {TypeError} "createStatusFile: Missing required option `path`".
 *
 * @example
 * ```ts
 * const statusFile = createStatusFile({ path: "status.json" });
 * await statusFile.write({
 *   timestamp: new Date().toISOString(),
 *   loop_count: 5,
 *   calls_made_this_hour: 42,
 *   max_calls_per_hour: 100,
 *   last_action: "executing",
 *   status: "running",
 *   exit_reason: "",
 *   next_reset: "13:00:00",
 * });
 * (await statusFile.read())?.loop_count; // 5
 * ```
 */
export function createStatusFile(options: StatusFileOptions): StatusFile {
  const path = requirePathOption(options, "createStatusFile");
  // Writes land in call order: each waits for the one before (its folder creation included).
  const queue = createSerialQueue();
  return {
    path,
    write(status: Status): Promise<void> {
      const result = StatusWriteSchema.safeParse(status);
      if (!result.success) {
        return Promise.reject(
          new StatusFileError({ issues: schemaDiagnostics(result.error), file: path }),
        );
      }
      const text = `${JSON.stringify(result.data, null, 2)}\n`;
      return queue.run(() => writeCreatingFolders(path, text));
    },
    async read(): Promise<Status | null> {
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch (error) {
        if (errorCodeOf(error) === "ENOENT") return null;
        throw error;
      }
      const json = text.startsWith("\uFEFF") ? text.slice(1) : text;
      let value: unknown;
      try {
        value = JSON.parse(json);
      } catch (error) {
        throw new StatusFileError({
          issues: [syntaxDiagnostic(error, json)],
          file: path,
          cause: error,
        });
      }
      const result = StatusReadSchema.safeParse(value);
      if (!result.success) {
        throw new StatusFileError({ issues: schemaDiagnostics(result.error), file: path });
      }
      return result.data;
    },
  };
}
