import { LoopError } from "@loop/core";

const marker = "loop.error.PostgresLogError";
const symbol = Symbol.for(marker);

/** Options of the {@link PostgresLogError} constructor. */
export interface PostgresLogErrorOptions {
  /** The PostgreSQL schema of the events table. */
  readonly schema: string;
  /** What went wrong (the driver's message). */
  readonly reason: string;
  /** Events waiting in the logger's buffer for the database to come back. */
  readonly buffered: number;
  /** Events dropped so far (the buffer was full, or the database refused them as invalid). */
  readonly dropped: number;
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * The decision-event logger could not write to PostgreSQL: the database is unreachable (the
 * events wait in the buffer and are written when it is back), or it refused a batch as
 * invalid (those events are dropped). Reported once per outage through the logger's
 * `onError`, and by a `flush` that could not write everything. Logging is best-effort: this
 * never stops the loop. Code: `POSTGRES_LOG_ERROR`.
 */
export class PostgresLogError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** Events waiting in the buffer when the error was raised. */
  readonly buffered: number;
  /** Events dropped so far. */
  readonly dropped: number;

  /** @param options - the schema, what went wrong and the buffer's counts. */
  constructor(options: PostgresLogErrorOptions) {
    super(
      {
        message: `Cannot write decision events to PostgreSQL schema "${options.schema}": ${options.reason} (${options.buffered} buffered, ${options.dropped} dropped so far)`,
        cause: options.cause,
      },
      "PostgresLogError",
      "POSTGRES_LOG_ERROR",
    );
    this.buffered = options.buffered;
    this.dropped = options.dropped;
  }

  /** Whether `error` is a {@link PostgresLogError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PostgresLogError {
    return LoopError.hasMarker(error, marker);
  }
}
