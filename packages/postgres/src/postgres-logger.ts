import type { Clock, DecisionEvent, Logger } from "@loop/core";
import { backgroundClock } from "./background-clock.js";
import { checkDuration } from "./duration-option.js";
import { EventBuffer } from "./event-buffer.js";
import { insertEvents } from "./insert-events.js";
import { type MigrationReport, migrateWithPool } from "./migrate-postgres-schema.js";
import {
  type PostgresConnectionOptions,
  type PostgresSchemaOptions,
  resolvePool,
  resolveSchema,
} from "./postgres-connection.js";
import { PostgresLogError } from "./postgres-log-error.js";
import { type ReadEventsQuery, type ReadEventsResult, readEvents } from "./read-events.js";
import { tableNames } from "./table-names.js";

/** The default bound of the logger's buffer: 1 000 events. */
export const DEFAULT_EVENT_BUFFER_LIMIT = 1000;

/** The default pause between attempts while the database is unreachable: 5 seconds. */
export const DEFAULT_LOG_RETRY_MS = 5000;

/** Events written per `INSERT`. */
const batchSize = 200;

/** Settings of {@link createPostgresLogger} beyond the connection and schema. */
export interface PostgresLoggerSettings {
  /** Recorded with every event (column `run_id`), to read one run back with `readEvents`. */
  readonly runId?: string | null | undefined;
  /**
   * The most events kept while the database is unreachable (default 1 000); past it the oldest
   * are dropped and counted in {@link PostgresLogger.dropped}.
   */
  readonly bufferLimit?: number | null | undefined;
  /** Pause between attempts while the database is unreachable, in ms (default 5 000). */
  readonly retryEveryMs?: number | null | undefined;
  /**
   * Called once per outage, with its first failure (later ones are not reported until a write
   * succeeds again): print a warning there. A throw from it is ignored.
   */
  readonly onError?: ((error: PostgresLogError) => void) | null | undefined;
  /** Paces the retries (tests pass a virtual clock). Default: the system time. */
  readonly clock?: Clock | null | undefined;
}

/** Options of {@link createPostgresLogger}. */
export type PostgresLoggerOptions = PostgresConnectionOptions &
  PostgresSchemaOptions &
  PostgresLoggerSettings;

/** A `Logger` writing decision events to PostgreSQL, created by {@link createPostgresLogger}. */
export interface PostgresLogger extends Logger {
  /** The PostgreSQL schema holding the events table. */
  readonly schema: string;
  /** Buffers the event and returns at once; it is written in the background. Never throws. */
  log(event: DecisionEvent): void;
  /**
   * Writes every event logged so far, waiting for writes in progress. Rejects with a
   * {@link PostgresLogError} when the database cannot take them now (they stay buffered and
   * are written when it is back); it tries once, so it does not hang on an outage.
   */
  flush(): Promise<void>;
  /** Reads events back, as the same `DecisionEvent`s; see {@link ReadEventsQuery}. */
  readEvents(query: ReadEventsQuery): Promise<ReadEventsResult>;
  /** Events waiting to be written (at most `bufferLimit`, plus one batch being written). */
  readonly buffered: number;
  /** Events dropped so far: the buffer was full during an outage, or the database refused them. */
  readonly dropped: number;
  /** Whether the last write failed (an outage the logger is waiting out). */
  readonly failing: boolean;
  /** Runs the migrations now (the first write does otherwise). */
  migrate(): Promise<MigrationReport>;
  /**
   * Tries a last flush, stops retrying, ends the pool if the logger opened it. Events logged
   * afterwards are dropped. Idempotent; rejects like `flush` when events could not be written.
   */
  close(): Promise<void>;
}

/**
 * A decision-event logger on PostgreSQL: each event a row of `<schema>.decision_events`
 * (`terminal_id`, `run_id`, `event`, its own `timestamp`, the `payload` as JSONB), indexed by
 * terminal, run and time, so a fleet's loops can be watched from one database.
 *
 * Best-effort, as logging is in the loop: `log` only buffers and returns, so a slow or
 * unreachable database never stops or slows the loop. Events are written in the background in
 * batches, in the order logged. When a write fails the logger reports it once through
 * `onError` (once per outage: until a write succeeds again), keeps at most `bufferLimit`
 * events (the oldest are dropped and counted) and tries again every `retryEveryMs`; when the
 * database is back, the buffered events are written. A batch the database refuses as invalid
 * (SQLSTATE class 22 or 23) is dropped and counted rather than retried forever. Strings in a
 * payload keep every character except NUL and lone surrogates, which `jsonb` cannot hold:
 * they become U+FFFD.
 *
 * @param options - `connectionString` or `pool`, the schema and the buffering settings.
 * @returns the logger; `close()` it when done.
 * @throws {TypeError} for invalid options, before connecting.
 * @example
 * ```ts
 * const logger = createPostgresLogger({
 *   connectionString: process.env.DATABASE_URL!,
 *   onError: (error) => console.warn(`decision log: ${error.message}`),
 * });
 * await runLoop({ plan, executor, store, logger });
 * await logger.close();
 * ```
 */
export function createPostgresLogger(options: PostgresLoggerOptions): PostgresLogger {
  const caller = "createPostgresLogger";
  const settings = loggerSettings(options, caller);
  const schema = resolveSchema((options as PostgresSchemaOptions | null)?.schema, caller);
  const { pool, owned } = resolvePool(options, caller);
  const tables = tableNames(schema);
  const buffer = new EventBuffer(settings.bufferLimit);
  const closed = new AbortController();
  let migration: Promise<MigrationReport> | null = null;
  let pumping: Promise<boolean> | null = null;
  let retrying = false;
  let outage: PostgresLogError | null = null;
  let closing: Promise<void> | null = null;

  const migrate = (): Promise<MigrationReport> => {
    migration ??= migrateWithPool(pool, schema).catch((error: unknown) => {
      migration = null;
      throw error;
    });
    return migration;
  };

  const logError = (error: unknown): PostgresLogError =>
    new PostgresLogError({
      schema,
      reason: error instanceof Error ? error.message : String(error),
      buffered: buffer.size,
      dropped: buffer.dropped,
      cause: error,
    });

  const report = (error: unknown): void => {
    if (outage !== null) return;
    outage = logError(error);
    try {
      settings.onError?.(outage);
    } catch {
      // The report itself failed: nothing more to do without troubling the loop.
    }
  };

  /** Writes batches until the buffer is empty (`true`) or a write fails (`false`). */
  const pump = (): Promise<boolean> => {
    pumping ??= (async () => {
      try {
        while (buffer.size > 0) {
          const batch = buffer.take(batchSize);
          try {
            await migrate();
            await insertEvents(pool, tables, settings.runId, batch);
            buffer.written();
          } catch (error) {
            if (isInvalidData(error)) {
              buffer.discard();
              report(error);
              continue;
            }
            buffer.putBack();
            report(error);
            retryLater();
            return false;
          }
          outage = null;
        }
        return true;
      } finally {
        pumping = null;
      }
    })();
    return pumping;
  };

  const retryLater = (): void => {
    if (retrying || closed.signal.aborted) return;
    retrying = true;
    void (async () => {
      while (outage !== null && !closed.signal.aborted) {
        await settings.clock.sleep(settings.retryEveryMs, closed.signal);
        if (closed.signal.aborted) break;
        await pump();
      }
      retrying = false;
    })();
  };

  const flush = async (): Promise<void> => {
    const target = buffer.newestSequence;
    while (buffer.holdsUpTo(target)) {
      if (!(await pump()) && buffer.holdsUpTo(target)) {
        throw logError(outage?.cause ?? new Error("the database did not take the events"));
      }
    }
  };

  return {
    schema,
    log(event: DecisionEvent): void {
      if (closing !== null) return;
      buffer.push(event);
      // During an outage the retry timer writes; otherwise start writing now.
      if (outage === null) void pump();
    },
    flush,
    readEvents: async (query) => {
      await migrate();
      return readEvents(pool, tables, query);
    },
    get buffered() {
      return buffer.size;
    },
    get dropped() {
      return buffer.dropped;
    },
    get failing() {
      return outage !== null;
    },
    migrate,
    close(): Promise<void> {
      closing ??= (async () => {
        try {
          await flush();
        } finally {
          closed.abort();
          if (owned) await pool.end().catch(() => undefined);
        }
      })();
      return closing;
    },
  };
}

interface LoggerSettings {
  readonly runId: string | null;
  readonly bufferLimit: number;
  readonly retryEveryMs: number;
  readonly onError: ((error: PostgresLogError) => void) | null;
  readonly clock: Clock;
}

function loggerSettings(options: PostgresLoggerOptions, caller: string): LoggerSettings {
  const given = (options ?? {}) as PostgresLoggerSettings;
  const { runId, bufferLimit, onError, clock } = given;
  if (runId !== undefined && runId !== null && (typeof runId !== "string" || runId === "")) {
    throw new TypeError(`${caller}: option \`runId\` must be a non-empty string`);
  }
  if (
    bufferLimit !== undefined &&
    bufferLimit !== null &&
    (!Number.isInteger(bufferLimit) || bufferLimit < 1)
  ) {
    throw new TypeError(
      `${caller}: option \`bufferLimit\` must be a whole number of events, 1 or more, got ${String(bufferLimit)}`,
    );
  }
  if (onError !== undefined && onError !== null && typeof onError !== "function") {
    throw new TypeError(`${caller}: option \`onError\` must be a function`);
  }
  if (clock !== undefined && clock !== null && typeof clock.sleep !== "function") {
    throw new TypeError(`${caller}: option \`clock\` must be a Clock (with now and sleep)`);
  }
  return {
    runId: runId ?? null,
    bufferLimit: bufferLimit ?? DEFAULT_EVENT_BUFFER_LIMIT,
    retryEveryMs: checkDuration(given.retryEveryMs, "retryEveryMs", caller) ?? DEFAULT_LOG_RETRY_MS,
    onError: onError ?? null,
    clock: clock ?? backgroundClock,
  };
}

/** Whether the database refused the data itself (SQLSTATE class 22 or 23), not the connection. */
function isInvalidData(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("22") || code.startsWith("23"));
}
