import {
  type CallClaim,
  type CallRelease,
  type CostRecord,
  checkSharedLimitValues,
  claimSharedCall,
  type SharedLimits,
  type SharedLimitsCaller,
  type SharedLimitsCallOptions,
  type SharedLimitsUsage,
  type SharedLimitValues,
  sharedUsage,
} from "@loop/core";
import type pg from "pg";
import { type MigrationReport, migrateWithPool } from "./migrate-postgres-schema.js";
import {
  type PostgresConnectionOptions,
  type PostgresSchemaOptions,
  query,
  resolvePool,
  resolveSchema,
} from "./postgres-connection.js";
import {
  claimCallRow,
  createRow,
  type ReadCounters,
  readRow,
  recordCostRow,
  releaseCallRow,
  type SharedLimitsRow,
} from "./shared-limits-queries.js";
import { tableNames } from "./table-names.js";
import { untilAborted } from "./until-aborted.js";

/** The row's name when none is given. */
const defaultName = "default";

/** The longest row name, in UTF-16 code units. */
const longestName = 200;

/**
 * How many times a claim's `UPDATE` is sent at most: it is sent again when it was refused but
 * the row, read right after, would grant it (the window reset between the two statements, or
 * the row was deleted). One more is what a reset needs; needing more than two more means
 * something else keeps changing the row, which is an error.
 */
const claimAttempts = 3;

const caller = "createPostgresSharedLimits";

/**
 * Settings of {@link createPostgresSharedLimits} beyond the connection and the schema.
 *
 * @example
 * ```ts
 * const settings: PostgresSharedLimitsSettings = { name: "team-a", maxCallsPerHour: 100, maxCostUsd: 50 };
 * ```
 */
export interface PostgresSharedLimitsSettings {
  /**
   * The fleet's row in `<schema>.shared_limits` (its primary key), so several fleets can keep
   * their limits in one schema: 1 to 200 characters, no NUL. Default `default`. Every loop of
   * one fleet names the same row and the same limits.
   */
  readonly name?: string | null | undefined;
  /** Agent calls the loops may make together per UTC clock hour: an integer ≥ 1. Default: none. */
  readonly maxCallsPerHour?: number | null | undefined;
  /** What the loops may spend together, in US dollars: a finite amount ≥ 0. Default: none. */
  readonly maxCostUsd?: number | null | undefined;
}

/**
 * Options of {@link createPostgresSharedLimits}: the connection (`connectionString` or `pool`),
 * the `schema` and the {@link PostgresSharedLimitsSettings}.
 *
 * @example
 * ```ts
 * const options: PostgresSharedLimitsOptions = {
 *   connectionString: process.env.DATABASE_URL!,
 *   maxCallsPerHour: 100,
 * };
 * ```
 */
export type PostgresSharedLimitsOptions = PostgresConnectionOptions &
  PostgresSchemaOptions &
  PostgresSharedLimitsSettings;

/**
 * The `SharedLimits` {@link createPostgresSharedLimits} returns: `name` `postgres`, with
 * `releaseCall`, `readUsage` and `close`.
 *
 * @example
 * ```ts
 * const sharedLimits: PostgresSharedLimits = createPostgresSharedLimits({ pool, maxCostUsd: 50 });
 * const usage = await sharedLimits.readUsage();
 * console.log(`${usage.callsThisHour} calls this hour, $${usage.costUsd} spent`);
 * ```
 */
export interface PostgresSharedLimits extends SharedLimits {
  /** `postgres`, for messages. */
  readonly name: string;
  /** `v1`. */
  readonly specificationVersion: "v1";
  /**
   * Claims one call in the current UTC hour of the database's clock: one atomic `UPDATE` of
   * the row. Rejects when the database cannot answer (the engine then retries).
   */
  claimCall(caller: SharedLimitsCaller, options?: SharedLimitsCallOptions): Promise<CallClaim>;
  /**
   * Adds a call's cost (a finite amount > 0, else a `RangeError`) in one atomic `UPDATE`, and
   * answers the counts after it.
   */
  recordCost(record: CostRecord, options?: SharedLimitsCallOptions): Promise<SharedLimitsUsage>;
  /**
   * Gives back a call that was never made: one call fewer, only while the row's window is the
   * one it was claimed in and the current one, and never below 0.
   */
  releaseCall(release: CallRelease, options?: SharedLimitsCallOptions): Promise<void>;
  /** The counts now, without claiming (no row yet: nothing counted). */
  readUsage(options?: SharedLimitsCallOptions): Promise<SharedLimitsUsage>;
  /**
   * Ends the pool when these shared limits opened it (a `pool` of yours is left open). Later
   * calls reject. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Shared limits in PostgreSQL, for a fleet of loops on several machines: one hourly call limit
 * and one cost budget that every loop sharing the row (`name`, in `<schema>.shared_limits`)
 * claims from, by the **database's** clock, so the machines agree on the hour whatever their
 * own clocks say.
 *
 * - `claimCall` is one atomic `UPDATE … WHERE <the budget is not spent> AND <calls are left>
 *   RETURNING …`: of any number of claims at once, from any number of machines, exactly the
 *   limit is granted. A refusal changes nothing; the row is read afterwards to say why (and
 *   how long the window has left).
 * - `recordCost` adds with `cost_usd = cost_usd + $1`; `releaseCall` takes one call back
 *   only in the window it was claimed in, while it is the current one.
 * - The tables are migrated before the first statement (once; a migration that failed is tried
 *   again by the next call), and the row is created when missing (calls 0, cost 0).
 * - Every change records the caller's `terminalId` and `runId` in the row
 *   (`updated_by_terminal`, `updated_by_run`).
 * - A database that cannot answer makes the call reject — never a guess — and the engine
 *   retries with backoff, then stops the loop with `limits_error` (docs/shared-limits.md).
 *   Each method rejects at once with the `signal`'s reason when it fires (a statement already
 *   sent may still finish on the server).
 *
 * @param options - `connectionString` or `pool`, the `schema` (`loop`), the row's `name`
 *   (`default`) and the limits (`maxCallsPerHour`, `maxCostUsd`; left out: no such limit).
 * @returns the shared limits; `close()` them when done.
 * @throws {TypeError} for invalid connection, schema or `name` options; a `RangeError` for an
 *   invalid limit. Both before connecting.
 * @example
 * ```ts
 * const connectionString = process.env.DATABASE_URL!;
 * const sharedLimits = createPostgresSharedLimits({
 *   connectionString,
 *   maxCallsPerHour: 100,
 *   maxCostUsd: 50,
 * });
 * try {
 *   await runLoop({ plan, executor, store, terminalId, sharedLimits });
 * } finally {
 *   await sharedLimits.close();
 * }
 * ```
 */
export function createPostgresSharedLimits(
  options: PostgresSharedLimitsOptions,
): PostgresSharedLimits {
  const settings = (options ?? {}) as PostgresSharedLimitsSettings & PostgresSchemaOptions;
  const limits: SharedLimitValues = checkSharedLimitValues(settings, caller);
  const name = resolveName(settings.name);
  const schema = resolveSchema(settings.schema, caller);
  const { pool, owned } = resolvePool(options, caller);
  const table = tableNames(schema).sharedLimits;
  let migration: Promise<MigrationReport> | null = null;
  let rowCreated: Promise<void> | null = null;
  let closing: Promise<void> | null = null;

  /** The row's statements for one call: each honours `signal` and names the row when it fails. */
  const rowFor = (signal: AbortSignal | undefined): SharedLimitsRow => ({
    table,
    name,
    async run<Row extends pg.QueryResultRow>(text: string, values: readonly unknown[]) {
      signal?.throwIfAborted();
      try {
        return await untilAborted(query<Row>(pool, text, values), signal);
      } catch (error) {
        if (signal?.aborted && error === signal.reason) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`PostgreSQL ${table}, row "${name}": ${reason}`, { cause: error });
      }
    },
  });

  const migrate = (signal: AbortSignal | undefined): Promise<MigrationReport> => {
    if (closing !== null) {
      return Promise.reject(new Error(`${caller}: these shared limits were closed`));
    }
    signal?.throwIfAborted();
    migration ??= migrateWithPool(pool, schema).catch((error: unknown) => {
      migration = null;
      throw error;
    });
    return untilAborted(migration, signal);
  };

  /** Migrates, then creates the row once (again after it was found missing). */
  const ensureRow = async (from: SharedLimitsCaller): Promise<void> => {
    await migrate(undefined);
    rowCreated ??= createRow(rowFor(undefined), from).catch((error: unknown) => {
      rowCreated = null;
      throw error;
    });
    return rowCreated;
  };

  return {
    name: "postgres",
    specificationVersion: "v1",

    async claimCall(from, callOptions): Promise<CallClaim> {
      const signal = callOptions?.signal;
      signal?.throwIfAborted();
      await untilAborted(ensureRow(from), signal);
      const row = rowFor(signal);
      for (let attempt = 1; attempt <= claimAttempts; attempt += 1) {
        const granted = await claimCallRow(row, from, limits);
        if (granted !== null) return { granted: true, usage: usageOf(granted, limits) };
        const read = await readRow(row);
        if (read.counters === null) {
          // Deleted since it was created: create it again and claim anew.
          rowCreated = null;
          await untilAborted(ensureRow(from), signal);
          continue;
        }
        const { claim } = claimSharedCall(read.counters, read.now, limits);
        if (!claim.granted) return claim;
        // The window reset between the UPDATE and the read: claim again in the new one.
      }
      throw new Error(
        `PostgreSQL ${table}, row "${name}": a claim was refused ${claimAttempts} times though the row, read right after, allowed it; something else keeps changing the row`,
      );
    },

    async recordCost(record, callOptions): Promise<SharedLimitsUsage> {
      const cost = record.costUsd;
      if (typeof cost !== "number" || !Number.isFinite(cost) || cost <= 0) {
        throw new RangeError(
          `PostgresSharedLimits.recordCost: costUsd must be a finite amount > 0 in US dollars, got ${String(cost)}`,
        );
      }
      const signal = callOptions?.signal;
      signal?.throwIfAborted();
      await untilAborted(ensureRow(record), signal);
      const row = rowFor(signal);
      const recorded = await recordCostRow(row, record, cost);
      if (recorded !== null) return usageOf(recorded, limits);
      // Deleted since it was created: create it again and add the cost there.
      rowCreated = null;
      await untilAborted(ensureRow(record), signal);
      const again = await recordCostRow(row, record, cost);
      if (again !== null) return usageOf(again, limits);
      throw new Error(
        `PostgreSQL ${table}, row "${name}": the row was gone twice while a cost of ${cost} USD was recorded; it was not recorded`,
      );
    },

    async releaseCall(release, callOptions): Promise<void> {
      const windowStart = release.windowStart;
      if (typeof windowStart !== "number" || !Number.isFinite(windowStart)) {
        throw new RangeError(
          `PostgresSharedLimits.releaseCall: windowStart must be the epoch milliseconds of the claim's window, got ${String(windowStart)}`,
        );
      }
      const signal = callOptions?.signal;
      await migrate(signal);
      await releaseCallRow(rowFor(signal), release, windowStart);
    },

    async readUsage(callOptions): Promise<SharedLimitsUsage> {
      const signal = callOptions?.signal;
      await migrate(signal);
      return usageOf(await readRow(rowFor(signal)), limits);
    },

    close(): Promise<void> {
      closing ??= owned ? pool.end().catch(() => undefined) : Promise.resolve();
      return closing;
    },
  };
}

function usageOf(read: ReadCounters, limits: SharedLimitValues): SharedLimitsUsage {
  return sharedUsage(read.counters, read.now, limits);
}

function resolveName(value: unknown): string {
  if (value === undefined || value === null) return defaultName;
  if (
    typeof value !== "string" ||
    value === "" ||
    value.length > longestName ||
    value.includes("\u0000")
  ) {
    const got =
      typeof value !== "string"
        ? typeof value
        : value.length > longestName
          ? `a string of ${value.length} characters`
          : JSON.stringify(value);
    throw new TypeError(
      `${caller}: option \`name\` must be a non-empty string of at most ${longestName} characters without NUL (the fleet's row in shared_limits), got ${got}`,
    );
  }
  return value;
}
