/** The quoted, schema-qualified names of the loop's tables, for SQL text. */
export interface TableNames {
  /** The schema's name as given (unquoted). */
  readonly schema: string;
  /** `"<schema>".state_documents`: one row per (terminal, key), current and backup text. */
  readonly documents: string;
  /** `"<schema>".state_leases`: one row per held lock. */
  readonly leases: string;
  /** `"<schema>".decision_events`: one row per decision event. */
  readonly events: string;
  /** `"<schema>".shared_limits`: one row per fleet's shared limits (its `name`). */
  readonly sharedLimits: string;
}

/**
 * The table names in `schema`.
 *
 * @param schema - a schema name already checked to be `[a-z_][a-z0-9_]*` (safe to quote).
 */
export function tableNames(schema: string): TableNames {
  const quoted = `"${schema}"`;
  return {
    schema,
    documents: `${quoted}.state_documents`,
    leases: `${quoted}.state_leases`,
    events: `${quoted}.decision_events`,
    sharedLimits: `${quoted}.shared_limits`,
  };
}
