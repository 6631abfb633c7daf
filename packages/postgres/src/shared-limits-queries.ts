import {
  type SharedCounters,
  type SharedLimitsCaller,
  type SharedLimitValues,
  sharedCountersOf,
} from "@loop/core";
import type pg from "pg";

// The statements of the PostgreSQL shared limits: each one statement on one row of
// `<schema>.shared_limits`, by the database's clock, so that every machine of a fleet counts in
// the same UTC hour and two claims at once are applied one after the other on the row.

/** The current window, by the database's clock: the top of the UTC hour of `now()`. */
const currentWindow = `(date_trunc('hour', now() AT TIME ZONE 'utc') AT TIME ZONE 'utc')`;

/** The database's time, whole epoch milliseconds. */
const nowMs = `floor(extract(epoch FROM now()) * 1000)::float8`;

/** A changed row's counters and the database's time. */
const returning = `RETURNING (extract(epoch FROM window_start) * 1000)::float8 AS window_start_ms,
  calls, cost_usd, ${nowMs} AS now_ms`;

/** Who changed the row: set with every change. */
const changedBy = `updated_at = now(), updated_by_terminal = $2, updated_by_run = $3`;

/** A row as the statements answer it (the counters are `null` when the row is missing). */
interface CountersRow {
  readonly window_start_ms: number | null;
  readonly calls: number | null;
  readonly cost_usd: number | null;
  readonly now_ms: number;
}

/** The row's counters, read at the database's time `now`; `null` when there is no row. */
export interface ReadCounters {
  /** The counters stored, or `null` when the row is missing. */
  readonly counters: SharedCounters | null;
  /** The database's time, epoch milliseconds. */
  readonly now: number;
}

/** Which row, and how its statements run: one at a time, for one call of the caller's. */
export interface SharedLimitsRow {
  /** The quoted, schema-qualified table: `"loop".shared_limits`. */
  readonly table: string;
  /** The row's `name`. */
  readonly name: string;
  /**
   * Runs one statement (the factory's runner honours the caller's signal and says which row
   * failed).
   */
  run<Row extends pg.QueryResultRow>(
    text: string,
    values: readonly unknown[],
  ): Promise<pg.QueryResult<Row>>;
}

function callerValues(row: SharedLimitsRow, caller: SharedLimitsCaller): unknown[] {
  return [row.name, caller.terminalId, caller.runId ?? null];
}

/**
 * The counters of a row, checked: a row edited by hand into something no implementation writes
 * (negative calls, a cost that is not a finite amount) is an error, never a guess.
 */
function countersOf(row: SharedLimitsRow, stored: CountersRow): ReadCounters {
  const now = stored.now_ms;
  if (stored.window_start_ms === null && stored.calls === null && stored.cost_usd === null) {
    return { counters: null, now };
  }
  const counters = sharedCountersOf({
    windowStart: stored.window_start_ms,
    callsMade: stored.calls,
    costUsd: stored.cost_usd,
  });
  if (counters === null) {
    throw new Error(
      `The row "${row.name}" of ${row.table} holds calls ${String(stored.calls)} and cost_usd ${String(stored.cost_usd)}, which are not shared limits counters (calls an integer ≥ 0, cost_usd a finite amount ≥ 0); fix or delete the row to count anew`,
    );
  }
  return { counters, now };
}

/** Creates the row when it is missing (calls 0, cost 0, the current window); else nothing. */
export async function createRow(row: SharedLimitsRow, caller: SharedLimitsCaller): Promise<void> {
  await row.run(
    `INSERT INTO ${row.table}
       (name, window_start, calls, cost_usd, updated_at, updated_by_terminal, updated_by_run)
     VALUES ($1, ${currentWindow}, 0, 0, now(), $2, $3)
     ON CONFLICT (name) DO NOTHING`,
    callerValues(row, caller),
  );
}

/**
 * Claims one call in one atomic statement: counts it (1 in a window of another hour, else one
 * more) when the budget is not spent and the current window's calls are not used up.
 * Concurrent claims on the row are applied one after another, each checking the row as the
 * one before left it (under READ COMMITTED, PostgreSQL re-checks the `WHERE` on the newest
 * version of a row it had to wait for), so of any number at once exactly the limit is granted.
 *
 * @returns the counters with the call counted, or `null` when it was refused (or the row is
 *   missing): nothing was changed then.
 */
export async function claimCallRow(
  row: SharedLimitsRow,
  caller: SharedLimitsCaller,
  limits: SharedLimitValues,
): Promise<ReadCounters | null> {
  const result = await row.run<CountersRow>(
    `UPDATE ${row.table}
        SET calls = CASE WHEN window_start = ${currentWindow} THEN calls + 1 ELSE 1 END,
            window_start = ${currentWindow},
            ${changedBy}
      WHERE name = $1
        AND ($4::float8 IS NULL OR cost_usd < $4::float8)
        AND ($5::float8 IS NULL OR window_start <> ${currentWindow} OR calls < $5::float8)
      ${returning}`,
    [...callerValues(row, caller), limits.maxCostUsd, limits.maxCallsPerHour],
  );
  const [stored] = result.rows;
  return stored === undefined ? null : countersOf(row, stored);
}

/**
 * Adds a cost in one atomic statement; a window of another hour becomes the current one,
 * empty (as `recordSharedCost` says).
 *
 * @returns the counters after it, or `null` when the row is missing.
 */
export async function recordCostRow(
  row: SharedLimitsRow,
  caller: SharedLimitsCaller,
  costUsd: number,
): Promise<ReadCounters | null> {
  const result = await row.run<CountersRow>(
    `UPDATE ${row.table}
        SET cost_usd = cost_usd + $4::float8,
            calls = CASE WHEN window_start = ${currentWindow} THEN calls ELSE 0 END,
            window_start = ${currentWindow},
            ${changedBy}
      WHERE name = $1
      ${returning}`,
    [...callerValues(row, caller), costUsd],
  );
  const [stored] = result.rows;
  return stored === undefined ? null : countersOf(row, stored);
}

/**
 * Takes one call back, in one statement: only when the row's window is both the one the call
 * was claimed in and the current one, and holds a call.
 */
export async function releaseCallRow(
  row: SharedLimitsRow,
  caller: SharedLimitsCaller,
  windowStart: number,
): Promise<void> {
  await row.run(
    `UPDATE ${row.table}
        SET calls = calls - 1,
            ${changedBy}
      WHERE name = $1
        AND window_start = to_timestamp($4::float8 / 1000)
        AND window_start = ${currentWindow}
        AND calls > 0`,
    [...callerValues(row, caller), windowStart],
  );
}

/** Reads the row's counters and the database's time (one statement, also without a row). */
export async function readRow(row: SharedLimitsRow): Promise<ReadCounters> {
  const result = await row.run<CountersRow>(
    `SELECT (extract(epoch FROM stored.window_start) * 1000)::float8 AS window_start_ms,
            stored.calls, stored.cost_usd, ${nowMs} AS now_ms
       FROM (SELECT 1) AS clock
       LEFT JOIN ${row.table} AS stored ON stored.name = $1`,
    [row.name],
  );
  const [stored] = result.rows;
  if (stored === undefined) throw new Error("PostgreSQL answered no row to a SELECT of one");
  return countersOf(row, stored);
}
