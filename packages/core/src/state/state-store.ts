/** The documents the loop keeps per terminal. Stores must accept any key matching `[a-z_]+`. */
export type StateDocumentKey = "loop_state" | "loop_metrics" | (string & {});

/** Which stored version of a document to read. */
export type StoredVersion = "current" | "backup";

/** Who holds a terminal's lock: written into the lock so a second loop can name the holder. */
export interface LockHolder {
  /** Process id of the holder. */
  readonly pid: number;
  /** Host name of the holder's machine. */
  readonly host: string;
  /** When the lock was taken, ISO 8601. */
  readonly startedAt: string;
}

/** A held lock on one terminal's state. */
export interface StateLock {
  /** The holder recorded in the lock (this process). */
  readonly holder: LockHolder;
  /**
   * The previous holder when a stale lock (its process gone) was taken over, so the caller can
   * log the takeover; `null` when the lock was free.
   */
  readonly takenOverFrom: LockHolder | null;
  /**
   * Optional: aborts when the lock is lost while it is held — a lease another holder took over
   * after it expired (the PostgreSQL store's). The loop then stops at once, its agent stopped,
   * with `state_error` (the signal's `reason`, a `StateStoreError`-coded error, is the run's
   * `error`). A store whose locks cannot be lost leaves it out.
   */
  readonly signal?: AbortSignal | undefined;
  /** Releases the lock. Idempotent. */
  release(): Promise<void>;
}

/** Options of {@link StateStore.lock}. */
export interface LockOptions {
  /** Aborts a lock attempt that waits (stores that wait at all). */
  readonly signal?: AbortSignal | undefined;
}

/** Options of {@link StateStore.set}. */
export interface StateSetOptions {
  /**
   * Whether the document must survive a power loss once `set` resolves (default `true`).
   * `false` says losing this version to a power loss costs nothing: the document is derived —
   * rebuilt from others by its next write, as `loop_metrics` is from `loop_state` — or the
   * version before it is enough (the `loop_state` that adds only a started agent's process
   * group, which a power loss ends too). A store may then skip what guards it against a power
   * loss (the file store's `fsync`s). The write is still atomic and still keeps the replaced
   * version as the backup. Stores that cannot tell the difference ignore it.
   */
  readonly durable?: boolean | undefined;
}

/**
 * Where the loop keeps its state: JSON documents (as text) keyed by terminal id and document
 * key (`loop_state`, `loop_metrics`). Any backend can implement it; every implementation runs
 * the shared conformance suite (`testStateStore` in the private `@loop/test-suite` package).
 *
 * Contract:
 * - Terminal ids are single path segments (see `getTerminalId`); a store rejects any other
 *   with a `StateStoreError` and never reads or writes outside its own space.
 * - {@link StateStore.set} replaces a document atomically: a reader, or a process killed at any
 *   instant, sees either the old or the new text in full, never a mix. The version it replaces
 *   becomes the document's backup (`get(…, "backup")`), so the last good version survives a
 *   corrupt current one.
 * - Documents of different terminals, and different keys, are independent.
 * - Failures to read or write are thrown (state is not best-effort), as `StateStoreError`.
 *
 * The store does not parse or validate: {@link StateManager} does, and recovers from the backup.
 */
export interface StateStore {
  /** The version of this interface the store implements. */
  readonly specificationVersion: "v1";
  /**
   * Reads a document's text, or `null` when it does not exist.
   * @param version - `current` (default) or the `backup` kept by the last {@link StateStore.set}.
   */
  get(terminalId: string, key: StateDocumentKey, version?: StoredVersion): Promise<string | null>;
  /**
   * Replaces a document atomically, keeping the replaced version as its backup.
   * @param options - `durable: false` for a derived document (see `StateSetOptions`).
   */
  set(
    terminalId: string,
    key: StateDocumentKey,
    text: string,
    options?: StateSetOptions,
  ): Promise<void>;
  /** Deletes a document and its backup. Deleting what does not exist is not an error. */
  delete(terminalId: string, key: StateDocumentKey): Promise<void>;
  /**
   * Takes the exclusive lock on a terminal's state, for the life of one loop. A live holder
   * makes it throw a `StateLockedError` naming the holder at once; a stale lock (its process
   * gone) is taken over and reported in {@link StateLock.takenOverFrom}.
   *
   * Optional: a store that cannot lock has no `lock`, and the loop runs without one.
   */
  lock?(terminalId: string, options?: LockOptions): Promise<StateLock>;
}
