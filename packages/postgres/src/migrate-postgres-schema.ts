import { StateStoreError } from "@loop/core";
import type pg from "pg";
import { LATEST_SCHEMA_VERSION, migrations } from "./migrations.js";
import {
  inTransaction,
  type PostgresConnectionOptions,
  type PostgresSchemaOptions,
  resolvePool,
  resolveSchema,
} from "./postgres-connection.js";
import { SchemaVersionError } from "./schema-version-error.js";

/** Options of {@link migratePostgresSchema}. */
export type MigratePostgresSchemaOptions = PostgresConnectionOptions & PostgresSchemaOptions;

/** What {@link migratePostgresSchema} did. */
export interface MigrationReport {
  /** The schema migrated. */
  readonly schema: string;
  /** Its version before: 0 for a new schema. */
  readonly fromVersion: number;
  /** Its version now: the newest this package knows. */
  readonly toVersion: number;
  /** The versions applied by this call, oldest first (none when it was up to date). */
  readonly applied: readonly number[];
}

/**
 * Brings the loop's tables in `schema` up to this package's version: creates the schema and
 * `schema_migrations` when missing, then applies, in one transaction, every migration not
 * recorded there yet, recording each. The store and the logger run it by themselves before
 * their first query; operators may run it ahead (at deploy time, with a role that may create
 * tables, while the loops' role may not).
 *
 * Safe to run from many processes at once: it holds a PostgreSQL advisory lock (per schema)
 * for the whole transaction, so one migrates and the others then find nothing to do. Running
 * it again is harmless.
 *
 * @param options - the connection (`connectionString` or `pool`) and the `schema` (`loop`).
 * @returns what was applied.
 * @throws {SchemaVersionError} when the database is at a newer version than this package knows
 *   (nothing is changed).
 * @throws {StateStoreError} when the database cannot be reached or a migration fails (the
 *   transaction is rolled back: nothing is half-applied).
 * @example
 * ```ts
 * const report = await migratePostgresSchema({ connectionString: process.env.DATABASE_URL! });
 * console.log(`loop schema ${report.schema}: ${report.fromVersion} → ${report.toVersion}`);
 * ```
 */
export async function migratePostgresSchema(
  options: MigratePostgresSchemaOptions,
): Promise<MigrationReport> {
  const caller = "migratePostgresSchema";
  const schema = resolveSchema((options as PostgresSchemaOptions | null)?.schema, caller);
  const { pool, owned } = resolvePool(options, caller);
  try {
    return await migrateWithPool(pool, schema);
  } finally {
    if (owned) await pool.end().catch(() => undefined);
  }
}

/**
 * {@link migratePostgresSchema} on a pool the caller keeps.
 *
 * @param pool - the pool.
 * @param schema - a checked schema name.
 */
export async function migrateWithPool(pool: pg.Pool, schema: string): Promise<MigrationReport> {
  try {
    return await inTransaction(pool, (client) => migrateInTransaction(client, schema));
  } catch (error) {
    if (StateStoreError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StateStoreError({
      message: `Could not migrate the loop tables in PostgreSQL schema "${schema}": ${reason}`,
      cause: error,
    });
  }
}

async function migrateInTransaction(
  client: pg.PoolClient,
  schema: string,
): Promise<MigrationReport> {
  const quoted = `"${schema}"`;
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`loop.migrations.${schema}`]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (
      version integer PRIMARY KEY,
      description text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`,
  );
  const result = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${quoted}.schema_migrations`,
  );
  const fromVersion = result.rows[0]?.version ?? 0;
  if (fromVersion > LATEST_SCHEMA_VERSION) {
    throw new SchemaVersionError({
      schema,
      databaseVersion: fromVersion,
      knownVersion: LATEST_SCHEMA_VERSION,
    });
  }
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= fromVersion) continue;
    for (const statement of migration.statements(quoted)) await client.query(statement);
    await client.query(
      `INSERT INTO ${quoted}.schema_migrations (version, description) VALUES ($1, $2)`,
      [migration.version, migration.description],
    );
    applied.push(migration.version);
  }
  return { schema, fromVersion, toVersion: LATEST_SCHEMA_VERSION, applied };
}
