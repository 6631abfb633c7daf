import type { DecisionEvent, Logger, SharedLimits, StateStore } from "@loop/core";
import type { LockHolderReport } from "@loop/fs";

/** The state store the commands use: any `StateStore` that locks and lists its terminals. */
export interface ProjectStateStore extends StateStore {
  /** Takes a terminal's lock (the file store's lock file, a database's lease). */
  lock: NonNullable<StateStore["lock"]>;
  /** Every terminal the store holds state for. */
  terminals(): Promise<string[]>;
}

/** A logger the command closes when it is done (flushing what is buffered). */
export interface ClosableLogger extends Logger {
  /** Writes what is buffered and lets go of the file or connection. */
  close(): Promise<void>;
}

/** What {@link ProjectBackend.openSharedLimits} opens: a fleet's counters and its limits. */
export interface FleetLimitsRequest {
  /** The fleet (`fleet.name`): loops with the same name count together. */
  readonly name: string;
  /** Calls per UTC hour for the whole fleet, `null`: none. */
  readonly maxCallsPerHour: number | null;
  /** The fleet's budget in US dollars, `null`: none. */
  readonly maxCostUsd: number | null;
  /** The user's home folder (the file counters are in `~/.loop/shared-limits/`). */
  readonly home: string;
}

/** Shared limits the command closes when it is done. */
export interface ClosableSharedLimits extends SharedLimits {
  /** Lets go of the connection (a database's); nothing for files. */
  close(): Promise<void>;
}

/**
 * Where a project's loops keep their state and decisions, as the commands see it: the project's
 * files (the default), or a PostgreSQL database a fleet shares (`--store postgres://…`).
 */
export interface ProjectBackend {
  /** `files` or `postgres`. */
  readonly kind: "files" | "postgres";
  /** The state store. */
  readonly store: ProjectStateStore;
  /** The file store's root folder; `null` when the state is in a database. */
  readonly root: string | null;
  /** Where the state is, for messages: the folder, or the database's URL without a password. */
  readonly where: string;
  /**
   * How often a monitor re-reads: files are watched (a slow re-read covers a missed change), a
   * database is polled.
   */
  readonly refreshMs: number;
  /** Who holds a terminal's lock and whether it lives; `null` when nobody holds it. */
  lockHolder(terminalId: string): Promise<LockHolderReport | null>;
  /**
   * A terminal's last `count` decision events, oldest first: from the project's decision log
   * (`decisionLog`), or from the database.
   */
  lastEvents(terminalId: string, count: number, decisionLog: string): Promise<DecisionEvent[]>;
  /**
   * The logger of a run: the project's decision log (JSON lines at `decisionLog`; the loop
   * reports its failures), and the database's events table too when the state is there, which
   * is best-effort: `onError` hears once of each outage.
   */
  openLogger(options: {
    readonly decisionLog: string;
    readonly onError: (error: unknown) => void;
  }): ClosableLogger;
  /**
   * The fleet's shared limits where its loops all reach them: a row of the database, or for
   * files a counter file of this machine, `~/.loop/shared-limits/<name>.json`.
   */
  openSharedLimits(request: FleetLimitsRequest): Promise<ClosableSharedLimits>;
  /** Lets go of the connections (a database's pool); the store is not used afterwards. */
  close(): Promise<void>;
}
