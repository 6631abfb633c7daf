import type { DecisionEvent, Logger } from "@loop/core";
import { createJsonLinesAppender } from "./json-lines-appender.js";
import type { LogRotationOptions } from "./log-rotation.js";

/** Options of {@link createJsonlLogger}. */
export interface JsonlLoggerOptions extends LogRotationOptions {
  /**
   * The decision log: the config's `logging.decision_log`
   * (`.claude/loop/logs/decision.log`). Missing parent folders are created.
   */
  readonly path: string;
}

/** A `Logger` that appends each decision event to a JSON-lines file. */
export interface JsonlLogger extends Logger {
  /** The decision log, as given. */
  readonly path: string;
  /**
   * Appends `event` as one JSON line (`terminal_id`, `event`, `payload`, `timestamp`).
   * Resolves when the line is written. Rejects with a `LogWriteError` when it cannot be
   * (disk full, permission denied); the logger does not swallow errors: wrap it in the core's
   * `bestEffort` so that a failing log is reported once and never breaks the loop.
   */
  log(event: DecisionEvent): Promise<void>;
  /** Resolves when every event logged so far is written (or has failed). */
  flush(): Promise<void>;
  /** Waits for the pending events; events logged afterwards are rejected. Idempotent. */
  close(): Promise<void>;
}

/**
 * Creates the decision log: one JSON line per event, appended to `path`.
 *
 * Events are written one after another in the order they are logged. Several processes (one
 * loop per terminal) may append to the same file: each line goes to the kernel in a single
 * `write` on a file opened with `O_APPEND`, which local file systems append whole, so lines
 * never interleave (not guaranteed on NFS). When a line would make the file larger than
 * `maxBytes` (10 MiB), the log is first rotated to `decision.log.1` (older files shift up to
 * `decision.log.<keep>`, 3 by default), under a lock file so that one process rotates; no line
 * is lost. See `docs/state-and-logs.md`.
 *
 * @param options - the file, and its rotation (`maxBytes`, `keep`).
 * @returns the logger.
 * @throws {TypeError} "createJsonlLogger: Missing required option `path`", or an invalid
 *   `maxBytes`/`keep`.
 *
 * @example
 * ```ts
 * import { bestEffort } from "@loop/core";
 * import { createJsonlLogger } from "@loop/fs";
 *
 * const logger = createJsonlLogger({ path: config.logging.decision_log });
 * await runLoop({ plan, executor, store, logger: bestEffort(logger) });
 * await logger.close();
 * ```
 */
export function createJsonlLogger(options: JsonlLoggerOptions): JsonlLogger {
  const appender = createJsonLinesAppender(options, "createJsonlLogger");
  return {
    path: appender.path,
    log: (event: DecisionEvent) => appender.append(event),
    flush: () => appender.flush(),
    close: () => appender.close(),
  };
}
