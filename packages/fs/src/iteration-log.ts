import { readdir, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { isSafeTerminalId } from "@loop/core";
import { atomicWriteFile } from "./atomic-write.js";
import { errorCodeOf } from "./atomic-write-error-code.js";
import { removeStaleTemporaryFilesOf } from "./atomic-write-temporary-file.js";
import type { IterationLogEntry } from "./iteration-log-entry.js";
import { formatIterationLog } from "./iteration-log-format.js";
import { iterationLogName, parseIterationLogName } from "./iteration-log-name.js";
import { LogWriteError } from "./log-write-error.js";
import { PRIVATE_FILE_MODE } from "./private-mode.js";
import { createSerialQueue } from "./serial-queue.js";

/** How many iteration logs a terminal keeps unless told otherwise (`logging.iteration_logs_keep`). */
export const DEFAULT_ITERATION_LOG_KEEP = 50;

/** Options of {@link createIterationLog}. */
export interface IterationLogOptions {
  /**
   * The folder of every terminal's iteration logs: the config's `logging.iteration_logs`
   * (`.claude/loop/logs/iterations`). Each terminal writes into its own subfolder.
   */
  readonly folder: string;
  /** The terminal whose loop this is: the name of its subfolder (a safe terminal id). */
  readonly terminalId: string;
  /**
   * How many logs the terminal keeps: after each write, all but the newest `keep` are deleted.
   * Default {@link DEFAULT_ITERATION_LOG_KEEP} (50); 0 writes none.
   */
  readonly keep?: number | null | undefined;
}

/** One terminal's per-iteration logs: one file per iteration, with retention. */
export interface IterationLog {
  /** This terminal's folder: `<folder>/<terminal id>`, absolute. */
  readonly folder: string;
  /** How many logs are kept. */
  readonly keep: number;
  /**
   * Writes one iteration's log (see `formatIterationLog`) atomically — a reader finds the whole
   * file or none — creating the folders, then deletes the oldest logs beyond `keep`. Writes run
   * one at a time, in call order. Like `decision.log`'s appends, it is not flushed to the disk
   * (`fsync`): a killed loop loses none of it, a power loss may lose the last logs.
   *
   * @returns the file written; `null` when `keep` is 0.
   * @throws {LogWriteError} (rejects) when the file cannot be written or an old one removed.
   */
  write(entry: IterationLogEntry): Promise<string | null>;
  /** Resolves when every write so far has settled. */
  flush(): Promise<void>;
}

function checkOptions(options: IterationLogOptions | null | undefined): Required<{
  folder: string;
  terminalId: string;
  keep: number;
}> {
  const factory = "createIterationLog";
  const folder = options?.folder;
  if (folder === undefined || folder === null) {
    throw new TypeError(`${factory}: Missing required option \`folder\``);
  }
  if (typeof folder !== "string" || folder === "") {
    throw new TypeError(
      `${factory}: option \`folder\` must be a non-empty string, got ${JSON.stringify(folder)}`,
    );
  }
  const terminalId = options?.terminalId;
  if (terminalId === undefined || terminalId === null) {
    throw new TypeError(`${factory}: Missing required option \`terminalId\``);
  }
  if (typeof terminalId !== "string" || !isSafeTerminalId(terminalId)) {
    throw new TypeError(
      `${factory}: option \`terminalId\` must be a safe terminal id (1 to 64 of A-Z a-z 0-9 . _ -, not starting with .), got ${JSON.stringify(terminalId)}`,
    );
  }
  const keep = options?.keep ?? DEFAULT_ITERATION_LOG_KEEP;
  if (!Number.isSafeInteger(keep) || keep < 0) {
    throw new TypeError(
      `${factory}: option \`keep\` must be a whole number of files, 0 or more, got ${String(keep)}`,
    );
  }
  return { folder, terminalId, keep };
}

/** Refuses an entry that cannot be named or written, with what is wrong. */
function checkEntry(entry: IterationLogEntry): void {
  const problem =
    typeof entry !== "object" || entry === null
      ? `an entry must be an object, got ${String(entry)}`
      : !Number.isSafeInteger(entry.iteration) || entry.iteration < 1
        ? `\`iteration\` must be a whole number from 1, got ${String(entry.iteration)}`
        : !Number.isFinite(entry.startedAt) || !Number.isFinite(entry.endedAt)
          ? "`startedAt` and `endedAt` must be epoch milliseconds"
          : typeof entry.result !== "object" || entry.result === null
            ? "`result` must be an ExecutionResult"
            : null;
  if (problem !== null) throw new TypeError(`IterationLog.write: ${problem}`);
}

function writeError(path: string, error: unknown): LogWriteError {
  const reason = error instanceof Error ? error.message : String(error);
  return new LogWriteError({ path, reason, cause: error });
}

/**
 * Deletes all but the newest `keep` iteration logs of `folder`, and the temporary files that
 * crashed writers left of any iteration log (other files are left alone): the writes do not
 * look for those themselves, since every log has a new name.
 *
 * @returns the logs left, oldest first.
 */
async function prune(folder: string, keep: number): Promise<string[]> {
  const names = await readdir(folder);
  await removeStaleTemporaryFilesOf(folder, names, (name) => parseIterationLogName(name) !== null);
  const logs = names.filter((name) => parseIterationLogName(name) !== null);
  logs.sort();
  await removeOldest(folder, logs, keep);
  return logs;
}

/** Deletes the first (oldest) of `logs` until `keep` are left, taking them out of `logs`. */
async function removeOldest(folder: string, logs: string[], keep: number): Promise<void> {
  for (const name of logs.splice(0, Math.max(0, logs.length - keep))) {
    const path = join(folder, name);
    try {
      await unlink(path);
    } catch (error) {
      if (errorCodeOf(error) !== "ENOENT") throw writeError(path, error);
    }
  }
}

/** `name` put into the sorted `names` where it sorts (at the end, for a log newer than all). */
function insertSorted(names: string[], name: string): void {
  let at = names.length;
  while (at > 0 && (names[at - 1] as string) > name) at -= 1;
  if (names[at - 1] !== name) names.splice(at, 0, name);
}

/**
 * Creates the per-iteration log of one terminal: `write(entry)` after each iteration puts the
 * agent's whole answer (Claude Code's stream-json, a command's stdout and stderr) under a short
 * header in `<folder>/<terminal id>/<start>-<iteration>-<task>.log`, and keeps the newest
 * `keep` files. `loop logs` reads them; `docs/state-and-logs.md` describes the format.
 *
 * @param options - the folder, the terminal and the retention.
 * @returns the iteration log.
 * @throws {TypeError} "createIterationLog: Missing required option `folder`", or an invalid
 *   `terminalId` or `keep`, before anything is written.
 *
 * @example
 * ```ts
 * const iterationLog = createIterationLog({
 *   folder: config.logging.iteration_logs,
 *   terminalId: "term_001",
 *   keep: config.logging.iteration_logs_keep,
 * });
 * await iterationLog.write({ iteration: 1, kind: "task", taskId: "TASK-001", attempt: 1,
 *   startedAt, endedAt: Date.now(), result });
 * ```
 */
export function createIterationLog(options: IterationLogOptions): IterationLog {
  const { folder, terminalId, keep } = checkOptions(options);
  const terminalFolder = resolve(folder, terminalId);
  const queue = createSerialQueue();
  /**
   * The folder's logs, oldest first, as the last listing found them and the writes since
   * changed them: the folder is listed on the first write and then once every `keep` writes
   * (no other process writes a terminal's logs while its loop holds the terminal), not on each.
   */
  let logs: string[] | null = null;
  let writesSinceListing = 0;
  return {
    folder: terminalFolder,
    keep,
    write(entry: IterationLogEntry): Promise<string | null> {
      if (keep === 0) return Promise.resolve(null);
      return queue.run(async () => {
        checkEntry(entry);
        const name = iterationLogName({
          startedAt: entry.startedAt,
          iteration: entry.iteration,
          task: entry.taskId,
        });
        const path = join(terminalFolder, name);
        const text = formatIterationLog(entry, terminalId);
        try {
          // A log, like decision.log: whole for every reader, not flushed (see `write`).
          await atomicWriteFile(path, text, {
            createDirectory: true,
            mode: PRIVATE_FILE_MODE,
            durable: false,
            // Crashed writers' leftovers are removed with the folder's listing (`prune`).
            removeLeftovers: false,
          });
        } catch (error) {
          throw writeError(path, error);
        }
        try {
          writesSinceListing += 1;
          if (logs === null || writesSinceListing >= keep) {
            logs = await prune(terminalFolder, keep);
            writesSinceListing = 0;
          } else {
            insertSorted(logs, name);
            await removeOldest(terminalFolder, logs, keep);
          }
        } catch (error) {
          logs = null;
          throw LogWriteError.isInstance(error) ? error : writeError(terminalFolder, error);
        }
        return path;
      });
    },
    flush: () => queue.idle(),
  };
}
