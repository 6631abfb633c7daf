import { createJsonLinesAppender } from "./json-lines-appender.js";
import type { LogRotationOptions } from "./log-rotation.js";
import { toVerifierRecord, type VerifierLogEntry } from "./verifier-log-record.js";

/** Options of {@link createVerifierLog}. */
export interface VerifierLogOptions extends LogRotationOptions {
  /**
   * The verifier log: the config's `logging.verifier_log` (`.claude/loop/logs/verifier.log`).
   * Missing parent folders are created.
   */
  readonly path: string;
}

/** A JSON-lines file of verification verdicts (`verifier.log`). */
export interface VerifierLog {
  /** The verifier log, as given. */
  readonly path: string;
  /**
   * Appends one verification as one JSON line (see `VerifierRecord`). Resolves when the line
   * is written; rejects with a `LogWriteError` when it cannot be (best-effort callers report
   * it and go on).
   */
  log(entry: VerifierLogEntry): Promise<void>;
  /** Resolves when every entry logged so far is written (or has failed). */
  flush(): Promise<void>;
  /** Waits for the pending entries; entries logged afterwards are rejected. Idempotent. */
  close(): Promise<void>;
}

/**
 * Creates the verifier log: one JSON line per verification,
 * `{ timestamp, terminal_id, passed, matches: [{ requirement, section, task, tasks, score, met }], unmet, concerns }`.
 *
 * It shares the decision log's machinery: ordered appends, single-`write` `O_APPEND` lines that
 * several processes can append without interleaving, and rotation at `maxBytes` (10 MiB)
 * keeping `keep` (3) files. See `createJsonlLogger` and `docs/state-and-logs.md`.
 *
 * @param options - the file, and its rotation (`maxBytes`, `keep`).
 * @returns the verifier log.
 * @throws {TypeError} "createVerifierLog: Missing required option `path`", or an invalid
 *   `maxBytes`/`keep`.
 *
 * @example
 * ```ts
 * const verifierLog = createVerifierLog({ path: config.logging.verifier_log });
 * const result = verifyCompletion({ completedTasks, requirements, concerns });
 * await verifierLog.log({ terminalId: "term_001", result });
 * ```
 */
export function createVerifierLog(options: VerifierLogOptions): VerifierLog {
  const appender = createJsonLinesAppender(options, "createVerifierLog");
  return {
    path: appender.path,
    log(entry: VerifierLogEntry): Promise<void> {
      let record: ReturnType<typeof toVerifierRecord>;
      try {
        record = toVerifierRecord(entry);
      } catch (error) {
        return Promise.reject(error);
      }
      return appender.append(record);
    },
    flush: () => appender.flush(),
    close: () => appender.close(),
  };
}
