/** One step of the loop tables' schema: applied once, in order, recorded in `schema_migrations`. */
export interface Migration {
  /** 1, 2, 3…: the order, and the number recorded. */
  readonly version: number;
  /** What it does, recorded beside the version. */
  readonly description: string;
  /** Its SQL statements, for the (already quoted) schema name. */
  readonly statements: (schema: string) => readonly string[];
}

/**
 * Every migration, oldest first. Never edit or remove a released one: add the next. Each
 * uses `IF NOT EXISTS`, so re-running one against tables it already made is harmless.
 * docs/running-a-fleet.md describes the tables they make.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    description: "state documents (current and backup) and terminal leases",
    statements: (schema) => [
      `CREATE TABLE IF NOT EXISTS ${schema}.state_documents (
        terminal_id text NOT NULL,
        key text NOT NULL,
        current_text bytea NOT NULL,
        backup_text bytea,
        revision bigint NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (terminal_id, key)
      )`,
      `CREATE TABLE IF NOT EXISTS ${schema}.state_leases (
        terminal_id text PRIMARY KEY,
        token uuid NOT NULL,
        holder_host text NOT NULL,
        holder_pid integer NOT NULL,
        holder_run_id text,
        started_at timestamptz NOT NULL,
        renewed_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
    ],
  },
  {
    version: 2,
    description: "decision events",
    statements: (schema) => [
      `CREATE TABLE IF NOT EXISTS ${schema}.decision_events (
        id bigserial PRIMARY KEY,
        terminal_id text NOT NULL,
        run_id text,
        event text NOT NULL,
        timestamp text NOT NULL,
        occurred_at timestamptz NOT NULL,
        payload jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX IF NOT EXISTS decision_events_terminal_time
        ON ${schema}.decision_events (terminal_id, occurred_at, id)`,
      `CREATE INDEX IF NOT EXISTS decision_events_run_time
        ON ${schema}.decision_events (run_id, occurred_at, id) WHERE run_id IS NOT NULL`,
      `CREATE INDEX IF NOT EXISTS decision_events_time
        ON ${schema}.decision_events (occurred_at)`,
    ],
  },
  {
    version: 3,
    description: "fleet shared limits",
    statements: (schema) => [
      `CREATE TABLE IF NOT EXISTS ${schema}.shared_limits (
        name text PRIMARY KEY,
        window_start timestamptz NOT NULL,
        calls integer NOT NULL,
        cost_usd double precision NOT NULL,
        updated_at timestamptz NOT NULL,
        updated_by_terminal text,
        updated_by_run text
      )`,
    ],
  },
];

/** The newest schema version this package knows. */
export const LATEST_SCHEMA_VERSION = migrations.length;
