import { StateStoreError } from "@loop/core";

const marker = "loop.error.SchemaVersionError";
const symbol = Symbol.for(marker);

/** Options of the {@link SchemaVersionError} constructor. */
export interface SchemaVersionErrorOptions {
  /** The PostgreSQL schema (namespace) holding the loop's tables. */
  readonly schema: string;
  /** The newest migration recorded in the database's `schema_migrations`. */
  readonly databaseVersion: number;
  /** The newest migration this copy of `@loop/postgres` knows. */
  readonly knownVersion: number;
}

/**
 * The database's loop tables were migrated by a newer `@loop/postgres` than this one: its
 * `schema_migrations` records a version this package does not know, so it cannot tell what
 * the tables hold and touches nothing. Upgrade `@loop/postgres` on this machine (every machine
 * of a fleet should run the same version), or point it at another `schema`.
 * Code: `STATE_SCHEMA_VERSION`; a loop stops with `state_error`.
 */
export class SchemaVersionError extends StateStoreError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** Stable code of this error: `STATE_SCHEMA_VERSION`. */
  override readonly code: string = "STATE_SCHEMA_VERSION";
  /** The PostgreSQL schema holding the loop's tables. */
  readonly schema: string;
  /** The newest migration recorded in the database. */
  readonly databaseVersion: number;
  /** The newest migration this package knows. */
  readonly knownVersion: number;

  /** @param options - the schema and the two versions. */
  constructor(options: SchemaVersionErrorOptions) {
    super({
      message: `The loop tables in PostgreSQL schema "${options.schema}" are at version ${options.databaseVersion}, newer than this @loop/postgres knows (${options.knownVersion}): upgrade @loop/postgres, or use another schema`,
    });
    this.name = "SchemaVersionError";
    this.schema = options.schema;
    this.databaseVersion = options.databaseVersion;
    this.knownVersion = options.knownVersion;
  }

  /** Whether `error` is a {@link SchemaVersionError}, from any copy of the package. */
  static override isInstance(error: unknown): error is SchemaVersionError {
    return StateStoreError.hasMarker(error, marker);
  }
}
