import { hostname } from "node:os";
import type { LockHolder } from "@loop/core";
import { testStateStore } from "@loop/test-suite";
import { afterAll } from "vitest";
import { createPostgresStateStore, type PostgresStateStore } from "./postgres-state-store.js";
import {
  describeWithPostgres,
  dropSchema,
  testPool,
  uniqueSchemaName,
} from "./testing/test-database.js";

// The shared StateStore conformance suite against a real PostgreSQL server: every store gets a
// schema of its own, and the hooks read and write the rows themselves, not through the store.

describeWithPostgres("PostgresStateStore on a real server", (url) => {
  const pool = testPool(url);
  afterAll(() => pool.end());

  /** Writes a lease row by hand, as another process would have; `expiresInMs` < 0 is expired. */
  async function plantLease(
    store: PostgresStateStore,
    terminalId: string,
    holder: LockHolder,
    expiresInMs: number,
  ): Promise<void> {
    await store.migrate();
    await pool.query(
      `INSERT INTO "${store.schema}".state_leases
         (terminal_id, token, holder_host, holder_pid, started_at, renewed_at, expires_at)
       VALUES ($1, gen_random_uuid(), $2, $3, $4, $4, now() + $5 * interval '1 millisecond')`,
      [terminalId, holder.host, holder.pid, holder.startedAt, expiresInMs],
    );
  }

  testStateStore<PostgresStateStore>({
    name: "PostgresStateStore",
    create: () => createPostgresStateStore({ pool, schema: uniqueSchemaName("conformance") }),
    async inspect(store, terminalId, key, version) {
      await store.migrate();
      const column = version === "backup" ? "backup_text" : "current_text";
      const result = await pool.query<{ text: Buffer | null }>(
        `SELECT ${column} AS text FROM "${store.schema}".state_documents
          WHERE terminal_id = $1 AND key = $2`,
        [terminalId, key],
      );
      return result.rows[0]?.text?.toString("utf8") ?? null;
    },
    async corrupt(store, terminalId, key, text) {
      await store.migrate();
      await pool.query(
        `INSERT INTO "${store.schema}".state_documents
           (terminal_id, key, current_text, revision, updated_at)
         VALUES ($1, $2, $3, 1, now())
         ON CONFLICT (terminal_id, key) DO UPDATE SET current_text = EXCLUDED.current_text`,
        [terminalId, key, Buffer.from(text, "utf8")],
      );
    },
    plantStaleLock: (store, terminalId, holder) =>
      plantLease(store, terminalId, holder, -60 * 60 * 1000),
    async plantLiveLock(store, terminalId) {
      const holder: LockHolder = {
        pid: process.ppid,
        host: hostname(),
        startedAt: new Date().toISOString(),
      };
      await plantLease(store, terminalId, holder, 60 * 60 * 1000);
      return holder;
    },
    async destroy(store) {
      await store.close();
      await dropSchema(pool, store.schema);
    },
  });
});
