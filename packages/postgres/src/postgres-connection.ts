import pg from "pg";

/**
 * Where the loop's tables are: a connection string (the package opens and owns a pool), or
 * a pool of yours (the package uses it and never ends it).
 */
export type PostgresConnectionOptions =
  | {
      /** A libpq connection URL, `postgres://user:password@host:5432/database`. */
      readonly connectionString: string;
      /** Not with `connectionString`. */
      readonly pool?: undefined;
    }
  | {
      /**
       * A `pg.Pool` of yours. It is never ended by the package. Give it an `error` listener (as
       * node-postgres asks of every pool): an idle connection the server drops emits one.
       */
      readonly pool: pg.Pool;
      /** Not with `pool`. */
      readonly connectionString?: undefined;
    };

/** The schema option shared by the store, the logger and the migrations. */
export interface PostgresSchemaOptions {
  /**
   * The PostgreSQL schema (namespace) of the loop's tables, created when missing: 1 to 63 of
   * `a-z 0-9 _`, starting with a letter or `_`. Default `loop`. Loops that share a schema see
   * each other's terminals.
   */
  readonly schema?: string | null | undefined;
}

/** A pool to use, and whether the package opened it (and so ends it on `close`). */
export interface ResolvedPool {
  /** The pool. */
  readonly pool: pg.Pool;
  /** Whether the package created it. */
  readonly owned: boolean;
}

/** Milliseconds an owned pool waits for a connection before the call fails: 10 seconds. */
const connectionTimeoutMs = 10_000;

const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/** The default schema of the loop's tables. */
export const DEFAULT_POSTGRES_SCHEMA = "loop";

/**
 * Checks the connection options and opens a pool for a connection string. An owned pool gets
 * an `error` listener, so a connection the server drops while idle (a restart) does not crash
 * the process: the next query opens a new one.
 *
 * @param options - what the caller passed.
 * @param caller - the factory's name, for the messages.
 * @throws {TypeError} when neither or both of `connectionString` and `pool` are given, or
 *   one of them is mistyped.
 */
export function resolvePool(options: unknown, caller: string): ResolvedPool {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      `${caller}: expected an options object with \`connectionString\` or \`pool\`, got ${options === null ? "null" : typeof options}`,
    );
  }
  const { connectionString, pool } = options as { connectionString?: unknown; pool?: unknown };
  if (connectionString !== undefined && pool !== undefined) {
    throw new TypeError(`${caller}: give \`connectionString\` or \`pool\`, not both`);
  }
  if (pool !== undefined) {
    if (!isPool(pool)) {
      throw new TypeError(`${caller}: option \`pool\` must be a pg.Pool (with query and connect)`);
    }
    return { pool, owned: false };
  }
  if (connectionString === undefined) {
    throw new TypeError(
      `${caller}: Missing required option \`connectionString\` (postgres://user@host:5432/database) or \`pool\``,
    );
  }
  if (typeof connectionString !== "string" || connectionString.trim() === "") {
    throw new TypeError(
      `${caller}: option \`connectionString\` must be a non-empty postgres:// URL, got ${JSON.stringify(connectionString)}`,
    );
  }
  const owned = new pg.Pool({ connectionString, connectionTimeoutMillis: connectionTimeoutMs });
  owned.on("error", () => {
    // An idle connection was dropped (server restart, network cut): the pool discards it and
    // the next query connects afresh, failing then if the server is still gone.
  });
  return { pool: owned, owned: true };
}

/**
 * Checks the `schema` option.
 *
 * @param value - the option as given.
 * @param caller - the factory's name, for the message.
 * @returns the schema name, `loop` when not given.
 * @throws {TypeError} for a name outside `[a-z_][a-z0-9_]{0,62}`.
 */
export function resolveSchema(value: unknown, caller: string): string {
  if (value === undefined || value === null) return DEFAULT_POSTGRES_SCHEMA;
  if (typeof value !== "string" || !schemaPattern.test(value)) {
    throw new TypeError(
      `${caller}: option \`schema\` must be 1 to 63 of a-z, 0-9 and _, starting with a letter or _, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function isPool(value: unknown): value is pg.Pool {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { query?: unknown }).query === "function" &&
    typeof (value as { connect?: unknown }).connect === "function"
  );
}

/** Clients that already have the package's `error` listener. */
const guarded = new WeakSet<pg.PoolClient>();

/**
 * Checks a client out of the pool with an `error` listener of its own for as long as it lives.
 * node-postgres emits `error` on a client whose connection dies — also while it is checked out
 * between two statements, and twice for one death (the socket's error, then its end) — and an
 * `error` without a listener would crash the process. The statement in flight still fails
 * (that error is the caller's), and a client so broken is released as broken.
 */
async function checkOut(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  if (!guarded.has(client)) {
    guarded.add(client);
    client.on("error", () => {
      // The statement in flight, if any, rejects with this error; the client is discarded.
    });
  }
  return client;
}

/**
 * Runs one statement on a client checked out with {@link checkOut} (use it instead of
 * `pool.query`, whose client is unguarded against a second `error`).
 */
export async function query<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  values?: readonly unknown[],
): Promise<pg.QueryResult<Row>> {
  const client = await checkOut(pool);
  try {
    const result = await client.query<Row>(text, values as unknown[] | undefined);
    client.release();
    return result;
  } catch (error) {
    // A connection error leaves the client unusable; any other keeps it good.
    client.release(isStatementError(error) ? undefined : asError(error));
    throw error;
  }
}

/** Whether the server answered with an error (a SQLSTATE), so the connection itself is fine. */
function isStatementError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === "string" &&
    /^[0-9A-Z]{5}$/.test(code) &&
    !code.startsWith("08") &&
    !code.startsWith("57P")
  );
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Runs `work` in one transaction on one connection, rolling back when it throws. */
export async function inTransaction<Result>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<Result>,
): Promise<Result> {
  const client = await checkOut(pool);
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    // A connection whose rollback failed is broken: the pool must not hand it out again.
    client.release(broken);
  }
}
