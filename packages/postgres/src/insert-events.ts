import type pg from "pg";
import type { BufferedEvent } from "./event-buffer.js";
import { query } from "./postgres-connection.js";
import { storableJson } from "./storable-json.js";
import type { TableNames } from "./table-names.js";

/** Columns written per event. */
const columns = ["terminal_id", "run_id", "event", "timestamp", "occurred_at", "payload"] as const;

/**
 * Writes a batch of events in one multi-row `INSERT` (all or none). `occurred_at` is the
 * event's own timestamp, parsed here; an unparsable one (never from the loop) falls back to
 * the time of writing, so one odd event cannot block the batch.
 */
export async function insertEvents(
  pool: pg.Pool,
  tables: TableNames,
  runId: string | null,
  batch: readonly BufferedEvent[],
): Promise<void> {
  if (batch.length === 0) return;
  const values: unknown[] = [];
  const rows = batch.map(({ event }, index) => {
    const parsed = Date.parse(event.timestamp);
    values.push(
      String(event.terminal_id),
      runId,
      String(event.event),
      String(event.timestamp),
      Number.isNaN(parsed) ? new Date() : new Date(parsed),
      storableJson(event.payload ?? {}),
    );
    const base = index * columns.length;
    return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5}, $${base + 6}::jsonb)`;
  });
  await query(
    pool,
    `INSERT INTO ${tables.events} (${columns.join(", ")}) VALUES ${rows.join(", ")}`,
    values,
  );
}
