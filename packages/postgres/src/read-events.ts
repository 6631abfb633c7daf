import { assertSafeTerminalId, type DecisionEvent, parseDecisionEvent } from "@loop/core";
import type pg from "pg";
import { query as runQuery } from "./postgres-connection.js";
import type { TableNames } from "./table-names.js";

/** What `PostgresLogger.readEvents` reads: one terminal's events, optionally of one run, since a time. */
export interface ReadEventsQuery {
  /** The terminal whose events to read. */
  readonly terminalId: string;
  /** Only the events logged with this run id (the logger's `runId`). */
  readonly runId?: string | null | undefined;
  /** Only events at or after this time (a `Date`, or ISO 8601 text). */
  readonly since?: Date | string | null | undefined;
  /** At most this many events (default 1 000, at most 100 000): the earliest ones, unless `latest`. */
  readonly limit?: number | null | undefined;
  /**
   * Read the latest `limit` events instead of the earliest (a status display's "last
   * decisions"); they are still returned oldest first. Default `false`.
   */
  readonly latest?: boolean | null | undefined;
}

/** The answer of `PostgresLogger.readEvents`. */
export interface ReadEventsResult {
  /** The valid events, oldest first, exactly as they were logged. */
  readonly events: readonly DecisionEvent[];
  /** Rows that are not a valid decision event (written by hand, or by a newer version): skipped. */
  readonly skipped: number;
}

const defaultLimit = 1000;
const largestLimit = 100_000;

interface EventRow {
  readonly terminal_id: string;
  readonly event: string;
  readonly timestamp: string;
  readonly payload: unknown;
}

/**
 * Reads decision events back from `<schema>.decision_events`, oldest first (by their own
 * timestamp, then by the order written), each checked with the core's `parseDecisionEvent`:
 * the same `DecisionEvent`s the loop logged; a row that is not one is counted in `skipped`.
 *
 * @throws {StateStoreError} for an unsafe terminal id; {@link TypeError} for a bad `since` or `limit`.
 */
export async function readEvents(
  pool: pg.Pool,
  tables: TableNames,
  query: ReadEventsQuery,
): Promise<ReadEventsResult> {
  assertSafeTerminalId(query?.terminalId);
  const since = sinceOf(query.since);
  const limit = limitOf(query.limit);
  const runId = query.runId ?? null;
  const latest = latestOf(query.latest);
  const order = latest ? "occurred_at DESC, id DESC" : "occurred_at, id";
  const result = await runQuery<EventRow>(
    pool,
    `SELECT terminal_id, event, timestamp, payload FROM ${tables.events}
      WHERE terminal_id = $1
        AND ($2::text IS NULL OR run_id = $2)
        AND ($3::timestamptz IS NULL OR occurred_at >= $3)
      ORDER BY ${order}
      LIMIT $4`,
    [query.terminalId, runId, since, limit],
  );
  const rows = latest ? result.rows.reverse() : result.rows;
  const events: DecisionEvent[] = [];
  let skipped = 0;
  for (const row of rows) {
    const line = JSON.stringify({
      terminal_id: row.terminal_id,
      event: row.event,
      payload: row.payload,
      timestamp: row.timestamp,
    });
    const parsed = parseDecisionEvent(line);
    if (parsed.ok) events.push(parsed.event);
    else skipped += 1;
  }
  return { events, skipped };
}

function sinceOf(value: Date | string | null | undefined): Date | null {
  if (value === undefined || value === null) return null;
  const time = value instanceof Date ? value.getTime() : Date.parse(String(value));
  if (Number.isNaN(time)) {
    throw new TypeError(
      `readEvents: \`since\` must be a Date or ISO 8601 text, got ${JSON.stringify(String(value))}`,
    );
  }
  return new Date(time);
}

function latestOf(value: boolean | null | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") {
    throw new TypeError(
      `readEvents: \`latest\` must be true or false, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function limitOf(value: number | null | undefined): number {
  if (value === undefined || value === null) return defaultLimit;
  if (!Number.isInteger(value) || value < 1 || value > largestLimit) {
    throw new TypeError(
      `readEvents: \`limit\` must be a whole number from 1 to ${largestLimit}, got ${String(value)}`,
    );
  }
  return value;
}
