/**
 * PostgreSQL adapters of the loop SDK, for loops on many machines sharing one database
 * (node-postgres): `createPostgresStateStore` (documents with backups in one row each, a lease
 * lock with a holder and an expiry that works across machines, fenced writes),
 * `createPostgresLogger` (decision events in a JSONB table, buffered through outages, read back
 * with `readEvents`), `createPostgresSharedLimits` (the fleet's hourly call limit and cost
 * budget in one row, claimed atomically by the database's clock) and `migratePostgresSchema`
 * (the versioned migrations they all run by themselves). docs/running-a-fleet.md is the guide.
 *
 * @packageDocumentation
 */

export type { PostgresLockHolder } from "./lease-holder.js";
export type { PostgresStateLock } from "./lease-lock.js";
export { LeaseLostError, type LeaseLostErrorOptions } from "./lease-lost-error.js";
export type { LeaseReport } from "./lease-report.js";
export {
  type MigratePostgresSchemaOptions,
  type MigrationReport,
  migratePostgresSchema,
} from "./migrate-postgres-schema.js";
export { LATEST_SCHEMA_VERSION } from "./migrations.js";
export {
  DEFAULT_POSTGRES_SCHEMA,
  type PostgresConnectionOptions,
  type PostgresSchemaOptions,
} from "./postgres-connection.js";
export { PostgresLogError, type PostgresLogErrorOptions } from "./postgres-log-error.js";
export {
  createPostgresLogger,
  DEFAULT_EVENT_BUFFER_LIMIT,
  DEFAULT_LOG_RETRY_MS,
  type PostgresLogger,
  type PostgresLoggerOptions,
  type PostgresLoggerSettings,
} from "./postgres-logger.js";
export {
  createPostgresSharedLimits,
  type PostgresSharedLimits,
  type PostgresSharedLimitsOptions,
  type PostgresSharedLimitsSettings,
} from "./postgres-shared-limits.js";
export {
  createPostgresStateStore,
  DEFAULT_LEASE_MS,
  DEFAULT_RECONNECT_WITHIN_MS,
  type PostgresStateStore,
  type PostgresStateStoreOptions,
  type PostgresStateStoreSettings,
} from "./postgres-state-store.js";
export type { ReadEventsQuery, ReadEventsResult } from "./read-events.js";
export { SchemaVersionError, type SchemaVersionErrorOptions } from "./schema-version-error.js";
