import { afterAll, afterEach, expect, it } from "vitest";
import { migratePostgresSchema } from "./migrate-postgres-schema.js";
import { LATEST_SCHEMA_VERSION } from "./migrations.js";
import { createPostgresStateStore } from "./postgres-state-store.js";
import { SchemaVersionError } from "./schema-version-error.js";
import {
  describeWithPostgres,
  dropSchema,
  testPool,
  uniqueSchemaName,
} from "./testing/test-database.js";

describeWithPostgres("migratePostgresSchema on a real server", (url) => {
  const pool = testPool(url);
  const schemas: string[] = [];
  afterEach(async () => {
    for (const schema of schemas.splice(0)) await dropSchema(pool, schema);
  });
  afterAll(() => pool.end());

  function newSchema(): string {
    const schema = uniqueSchemaName("migrate");
    schemas.push(schema);
    return schema;
  }

  async function tablesOf(schema: string): Promise<string[]> {
    const result = await pool.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
      [schema],
    );
    return result.rows.map((row) => row.name);
  }

  async function indexesOf(schema: string): Promise<string[]> {
    const result = await pool.query<{ name: string }>(
      `SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND tablename = 'decision_events' ORDER BY 1`,
      [schema],
    );
    return result.rows.map((row) => row.name);
  }

  it("creates the schema and its tables, and records each version once", async () => {
    const schema = newSchema();
    const report = await migratePostgresSchema({ connectionString: url, schema });
    expect(report).toEqual({ schema, fromVersion: 0, toVersion: 3, applied: [1, 2, 3] });
    expect(await tablesOf(schema)).toEqual([
      "decision_events",
      "schema_migrations",
      "shared_limits",
      "state_documents",
      "state_leases",
    ]);
    expect(await indexesOf(schema)).toEqual([
      "decision_events_pkey",
      "decision_events_run_time",
      "decision_events_terminal_time",
      "decision_events_time",
    ]);
    const again = await migratePostgresSchema({ pool, schema });
    expect(again).toEqual({ schema, fromVersion: 3, toVersion: 3, applied: [] });
    const recorded = await pool.query(`SELECT version FROM "${schema}".schema_migrations`);
    expect(recorded.rowCount).toBe(LATEST_SCHEMA_VERSION);
  });

  it("lets one of 6 concurrent migrations apply, under its advisory lock; the others find nothing to do", async () => {
    const schema = newSchema();
    const reports = await Promise.all(
      Array.from({ length: 6 }, () => migratePostgresSchema({ connectionString: url, schema })),
    );
    const applied = reports.map((report) => report.applied.length).sort();
    expect(applied).toEqual([0, 0, 0, 0, 0, 3]);
  });

  it("brings an older schema up to date, applying only what is missing", async () => {
    const schema = newSchema();
    await migratePostgresSchema({ pool, schema });
    // Back to version 1, as a package that knew only migration 1 left it.
    await pool.query(`DROP TABLE "${schema}".decision_events`);
    await pool.query(`DROP TABLE "${schema}".shared_limits`);
    await pool.query(`DELETE FROM "${schema}".schema_migrations WHERE version >= 2`);
    const report = await migratePostgresSchema({ pool, schema });
    expect(report).toEqual({ schema, fromVersion: 1, toVersion: 3, applied: [2, 3] });
    expect(await tablesOf(schema)).toContain("decision_events");
    expect(await tablesOf(schema)).toContain("shared_limits");
    // Back to version 2, as a package before the shared limits left it.
    await pool.query(`DROP TABLE "${schema}".shared_limits`);
    await pool.query(`DELETE FROM "${schema}".schema_migrations WHERE version = 3`);
    const second = await migratePostgresSchema({ pool, schema });
    expect(second).toEqual({ schema, fromVersion: 2, toVersion: 3, applied: [3] });
    expect(await tablesOf(schema)).toContain("shared_limits");
  });

  it("refuses a database at a newer version with SchemaVersionError, changing nothing", async () => {
    const schema = newSchema();
    await migratePostgresSchema({ pool, schema });
    await pool.query(
      `INSERT INTO "${schema}".schema_migrations (version, description) VALUES (99, 'from the future')`,
    );
    const error = await migratePostgresSchema({ pool, schema }).catch((reason: unknown) => reason);
    expect(SchemaVersionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "STATE_SCHEMA_VERSION",
      schema,
      databaseVersion: 99,
      knownVersion: LATEST_SCHEMA_VERSION,
    });
    expect((error as Error).message).toContain("upgrade @loop/postgres");

    const store = createPostgresStateStore({ pool, schema });
    await expect(store.set("term", "loop_state", "x")).rejects.toSatisfy(
      SchemaVersionError.isInstance,
    );
    await store.close();
    const rows = await pool.query(`SELECT * FROM "${schema}".state_documents`);
    expect(rows.rowCount).toBe(0);
  });
});
