import { randomUUID } from "node:crypto";
import {
  assertSafeTerminalId,
  type Clock,
  isSafeTerminalId,
  type LockOptions,
  LoopError,
  type StateDocumentKey,
  type StateStore,
  StateStoreError,
  type StoredVersion,
  systemClock,
} from "@loop/core";
import type pg from "pg";
import { backgroundClock } from "./background-clock.js";
import { assertSafeDocumentKey } from "./document-key.js";
import { deleteDocumentRow, selectDocument, upsertDocument } from "./document-queries.js";
import { decodeDocumentText, encodeDocumentText } from "./document-text.js";
import { checkDuration } from "./duration-option.js";
import { holderColumns, holderOfRow, type LeaseHolderRow } from "./lease-holder.js";
import {
  acquireLease,
  type HeldLease,
  type LeaseSettings,
  type PostgresStateLock,
} from "./lease-lock.js";
import type { LeaseLostError } from "./lease-lost-error.js";
import { type LeaseReport, leaseReportOfRow } from "./lease-report.js";
import { type MigrationReport, migrateWithPool } from "./migrate-postgres-schema.js";
import {
  type PostgresConnectionOptions,
  type PostgresSchemaOptions,
  query,
  resolvePool,
  resolveSchema,
} from "./postgres-connection.js";
import { withReconnect } from "./reconnect.js";
import { SchemaVersionError } from "./schema-version-error.js";
import { type TableNames, tableNames } from "./table-names.js";

/** The default lease: 30 seconds from the last renewal. */
export const DEFAULT_LEASE_MS = 30_000;

/** Settings of {@link createPostgresStateStore} beyond the connection and schema. */
export interface PostgresStateStoreSettings {
  /**
   * How long a lease lasts after its last renewal, in milliseconds (default 30 000): a holder
   * that dies is taken over this long after its last renewal at the latest.
   */
  readonly leaseMs?: number | null | undefined;
  /** How often the holder renews its leases, in milliseconds: default `leaseMs / 3`. */
  readonly renewEveryMs?: number | null | undefined;
  /** Paces the renewals (tests pass a virtual clock). Default: the system time. */
  readonly clock?: Clock | null | undefined;
  /**
   * Called once per lease that this store finds lost (another holder took it over after it
   * expired): stop the loop there. The lock's `signal` aborts at the same time, and the store
   * refuses this holder's later writes to that terminal with a {@link LeaseLostError}.
   */
  readonly onLockLost?: ((error: LeaseLostError) => void) | null | undefined;
  /** The run id recorded in the leases this store takes, shown to a loop it refuses. */
  readonly runId?: string | null | undefined;
  /**
   * How long a call keeps trying when its connection fails or breaks (a database restart, a
   * dropped connection), in milliseconds of pauses (50 ms growing to 1 s): default 10 000; 0
   * tries once. A `set` tried again cannot apply twice (see `createPostgresStateStore`).
   */
  readonly reconnectWithinMs?: number | null | undefined;
}

/** Options of {@link createPostgresStateStore}. */
export type PostgresStateStoreOptions = PostgresConnectionOptions &
  PostgresSchemaOptions &
  PostgresStateStoreSettings;

/** A `StateStore` on PostgreSQL, created by {@link createPostgresStateStore}. */
export interface PostgresStateStore extends StateStore {
  /** The PostgreSQL schema holding the tables. */
  readonly schema: string;
  /** Takes a terminal's lease; see {@link createPostgresStateStore}. */
  lock(terminalId: string, options?: LockOptions): Promise<PostgresStateLock>;
  /**
   * The ids of the terminals that have a document or a lease in the schema, sorted: for tools
   * that look across every loop of a fleet.
   */
  terminals(): Promise<string[]>;
  /** Who holds a terminal's lease and until when, without taking it; `null` when free. */
  lease(terminalId: string): Promise<LeaseReport | null>;
  /** Runs the migrations now (every method does before its first query); see `migratePostgresSchema`. */
  migrate(): Promise<MigrationReport>;
  /**
   * Releases the leases this store still holds (it could no longer renew them) and ends the
   * pool if the store opened it (a `connectionString`); a pool it was handed is never ended.
   * Later calls are refused with a `StateStoreError`. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * A state store on PostgreSQL, for loops on many machines that share one database:
 *
 * - Documents: one row per (terminal, key) of `<schema>.state_documents`, holding the current
 *   and the backup text (as UTF-8 `bytea`, so every text comes back byte for byte, NUL
 *   included). `set` is ONE statement, an upsert that moves the current text to the backup:
 *   a document is never half-written, and of concurrent writers (any number of processes)
 *   none is lost — each write's backup is the version written before it.
 * - Lock: a lease row per terminal in `<schema>.state_leases` naming the holder (host, pid,
 *   run id, start) with an expiry computed by the database's clock. The holder renews it every
 *   `renewEveryMs`; a live lease makes `lock` throw `StateLockedError` naming the holder, at
 *   once; an expired one (its holder died, was killed, lost its connection) is taken over and
 *   reported in `takenOverFrom` (the loop logs `lock_takeover`). Exactly one of any number of
 *   contenders wins.
 * - Fencing: while this store holds a terminal's lease, its writes to that terminal are
 *   conditional on the lease (same statement); a holder whose lease was taken over gets a
 *   {@link LeaseLostError} (code `STATE_LEASE_LOST`, so a loop stops with `state_error`), its
 *   lock's `signal` aborts and `onLockLost` is called.
 * - Migrations run by themselves before the first query (see `migratePostgresSchema`); a
 *   database at a newer version is a `SchemaVersionError`.
 * - A call whose connection fails or breaks (a restart, `pg_terminate_backend`, a network
 *   cut) is tried again on a new connection for up to `reconnectWithinMs` (10 s). A `set`
 *   tried again leaves the backup alone when the current text already is the new one, so a
 *   first attempt that committed before its connection broke is not applied twice.
 * - Terminal ids and keys are checked as the file store checks them (`StateStoreError`); a
 *   database still unreachable after that is a `StateStoreError` naming the schema: state is
 *   not best-effort.
 *
 * docs/running-a-fleet.md describes the tables and the guarantees.
 *
 * @param options - `connectionString` or `pool`, and the settings.
 * @returns the store; `close()` it when done.
 * @throws {TypeError} for invalid options, before connecting.
 * @example
 * ```ts
 * const store = createPostgresStateStore({ connectionString: process.env.DATABASE_URL! });
 * try {
 *   await runLoop({ plan, executor, store, terminalId });
 * } finally {
 *   await store.close();
 * }
 * ```
 */
export function createPostgresStateStore(options: PostgresStateStoreOptions): PostgresStateStore {
  const caller = "createPostgresStateStore";
  const settings = leaseSettings(options, caller);
  const schema = resolveSchema((options as PostgresSchemaOptions | null)?.schema, caller);
  const { pool, owned } = resolvePool(options, caller);
  const tables = tableNames(schema);
  const held = new Map<string, HeldLease>();
  const reconnectWithinMs = reconnectWindow(options, caller);
  const retryClock = (options as PostgresStateStoreSettings).clock ?? systemClock;
  let migration: Promise<MigrationReport> | null = null;
  let closing: Promise<void> | null = null;

  const migrate = (): Promise<MigrationReport> => {
    migration ??= migrateWithPool(pool, schema).catch((error: unknown) => {
      migration = null;
      throw error;
    });
    return migration;
  };
  const run = async <Result>(
    action: string,
    work: (retry: boolean) => Promise<Result>,
  ): Promise<Result> => {
    if (closing !== null) {
      throw new StateStoreError({ message: `Could not ${action}: the store was closed` });
    }
    try {
      return await withReconnect(
        async (retry) => {
          await migrateForCall();
          return work(retry);
        },
        reconnectWithinMs,
        retryClock,
      );
    } catch (error) {
      throw failure(action, schema, error);
    }
  };
  /** The migration, its wrapper taken off: "Could not read … : ECONNREFUSED". */
  const migrateForCall = async (): Promise<void> => {
    try {
      await migrate();
    } catch (error) {
      if (SchemaVersionError.isInstance(error)) throw error;
      throw (error as { cause?: unknown }).cause ?? error;
    }
  };

  return {
    specificationVersion: "v1",
    schema,
    async get(terminalId, key, version = "current") {
      checkTarget(terminalId, key);
      checkVersion(version);
      const row = await run(`read the ${version} "${key}" of terminal "${terminalId}"`, () =>
        selectDocument(pool, tables, terminalId, key),
      );
      if (row === null) return null;
      return decodeDocumentText(version === "current" ? row.current_text : row.backup_text);
    },
    async set(terminalId, key, text) {
      checkTarget(terminalId, key);
      const action = `write "${key}" of terminal "${terminalId}"`;
      const bytes = encodeDocumentText(text, action);
      const lease = fencingLease(held, terminalId);
      if (lease?.signal.aborted) throw lease.signal.reason;
      const revision = await run(action, (retry) =>
        upsertDocument(pool, tables, terminalId, key, lease?.token ?? null, bytes, retry),
      );
      if (revision === null && lease !== undefined) throw await lease.markLost(action);
    },
    async delete(terminalId, key) {
      checkTarget(terminalId, key);
      const action = `delete "${key}" of terminal "${terminalId}"`;
      const lease = fencingLease(held, terminalId);
      if (lease?.signal.aborted) throw lease.signal.reason;
      const allowed = await run(action, () =>
        deleteDocumentRow(pool, tables, terminalId, key, lease?.token ?? null),
      );
      if (!allowed && lease !== undefined) throw await lease.markLost(action);
    },
    async lock(terminalId, lockOptions) {
      assertSafeTerminalId(terminalId);
      const signal = lockOptions?.signal;
      signal?.throwIfAborted();
      const token = randomUUID();
      return run(`lock terminal "${terminalId}"`, () =>
        acquireLease(pool, tables, terminalId, settings, held, signal, token),
      );
    },
    terminals: () => run("list the terminals", () => listTerminals(pool, tables)),
    async lease(terminalId) {
      assertSafeTerminalId(terminalId);
      return run(`read the lease of terminal "${terminalId}"`, () =>
        readLease(pool, tables, terminalId),
      );
    },
    migrate: () => run("migrate the tables", () => migrate()),
    close(): Promise<void> {
      closing ??= (async () => {
        for (const lease of held.values()) await lease.release().catch(() => undefined);
        if (owned) await pool.end();
      })();
      return closing;
    },
  };
}

/** The default of `reconnectWithinMs`: 10 seconds. */
export const DEFAULT_RECONNECT_WITHIN_MS = 10_000;

function reconnectWindow(options: PostgresStateStoreOptions, caller: string): number {
  const value = (options as PostgresStateStoreSettings | null)?.reconnectWithinMs;
  if (value === 0) return 0;
  return checkDuration(value, "reconnectWithinMs", caller) ?? DEFAULT_RECONNECT_WITHIN_MS;
}

function leaseSettings(options: PostgresStateStoreOptions, caller: string): LeaseSettings {
  const given = (options ?? {}) as PostgresStateStoreSettings;
  const leaseMs = checkDuration(given.leaseMs, "leaseMs", caller) ?? DEFAULT_LEASE_MS;
  const renewEveryMs = checkDuration(given.renewEveryMs, "renewEveryMs", caller) ?? leaseMs / 3;
  if (renewEveryMs >= leaseMs) {
    throw new TypeError(
      `${caller}: option \`renewEveryMs\` (${renewEveryMs}) must be shorter than \`leaseMs\` (${leaseMs}), or the lease expires between renewals`,
    );
  }
  const { clock, onLockLost, runId } = given;
  if (clock !== undefined && clock !== null && typeof clock.sleep !== "function") {
    throw new TypeError(`${caller}: option \`clock\` must be a Clock (with now and sleep)`);
  }
  if (onLockLost !== undefined && onLockLost !== null && typeof onLockLost !== "function") {
    throw new TypeError(`${caller}: option \`onLockLost\` must be a function`);
  }
  if (runId !== undefined && runId !== null && (typeof runId !== "string" || runId === "")) {
    throw new TypeError(`${caller}: option \`runId\` must be a non-empty string`);
  }
  return {
    leaseMs,
    renewEveryMs,
    clock: clock ?? backgroundClock,
    runId: runId ?? null,
    onLockLost: onLockLost ?? null,
  };
}

/**
 * The lease whose token fences writes to `terminalId`: the one this store holds on it, until
 * released (a lost one too, which refuses every write).
 */
function fencingLease(held: Map<string, HeldLease>, terminalId: string): HeldLease | undefined {
  return held.get(terminalId);
}

function checkTarget(terminalId: string, key: StateDocumentKey): void {
  assertSafeTerminalId(terminalId);
  assertSafeDocumentKey(key);
}

function checkVersion(version: StoredVersion): void {
  if (version !== "current" && version !== "backup") {
    throw new StateStoreError({
      message: `Unknown stored version ${JSON.stringify(version)}: use "current" or "backup"`,
    });
  }
}

async function listTerminals(pool: pg.Pool, tables: TableNames): Promise<string[]> {
  const result = await query<{ terminal_id: string }>(
    pool,
    `SELECT terminal_id FROM (
       SELECT terminal_id FROM ${tables.documents} UNION SELECT terminal_id FROM ${tables.leases}
     ) AS terminals ORDER BY terminal_id COLLATE "C"`,
  );
  return result.rows.map((row) => row.terminal_id).filter(isSafeTerminalId);
}

async function readLease(
  pool: pg.Pool,
  tables: TableNames,
  terminalId: string,
): Promise<LeaseReport | null> {
  const result = await query<LeaseHolderRow & { expires_at: Date; expired: boolean }>(
    pool,
    `SELECT ${holderColumns}, expires_at, expires_at <= clock_timestamp() AS expired
       FROM ${tables.leases} WHERE terminal_id = $1`,
    [terminalId],
  );
  const row = result.rows[0];
  return row === undefined ? null : leaseReportOfRow(row, holderOfRow(row));
}

/**
 * A `StateStoreError` saying what failed, in which schema, and why; the package's own typed
 * errors (`StateLockedError`, `LeaseLostError`, `SchemaVersionError`…) pass as they are.
 */
function failure(action: string, schema: string, cause: unknown): Error {
  if (LoopError.isInstance(cause)) return cause;
  if (cause instanceof DOMException && cause.name === "AbortError") return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StateStoreError({
    message: `Could not ${action} in PostgreSQL schema "${schema}": ${reason}`,
    cause,
  });
}
