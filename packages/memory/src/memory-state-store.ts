import { hostname } from "node:os";
import {
  assertSafeTerminalId,
  type LockHolder,
  type StateDocumentKey,
  type StateLock,
  StateLockedError,
  type StateStore,
  type StoredVersion,
} from "@loop/core";
import { isLocalProcessAlive } from "./is-local-process-alive.js";

/** One document as a {@link MemoryStateStore} keeps it. */
export interface MemoryDocument {
  /** The current text. */
  readonly current: string;
  /** The text the last `set` replaced, or `null` after the first `set`. */
  readonly backup: string | null;
}

/** Every stored document, by terminal id then key: what {@link MemoryStateStore.snapshot} returns. */
export type MemoryStateSnapshot = Record<string, Record<string, MemoryDocument>>;

/** Options of {@link MemoryStateStore}. */
export interface MemoryStateStoreOptions {
  /**
   * Whether a lock's holder is still running. A lock whose holder is not is stale, and
   * {@link MemoryStateStore.lock} takes it over. Default: the holder is this process, or a
   * process on this host that `process.kill(pid, 0)` finds; a holder on another host counts
   * as running.
   */
  readonly isProcessAlive?: ((holder: LockHolder) => boolean) | undefined;
  /** The clock that stamps a lock's `startedAt`. Default: `() => new Date()`. */
  readonly now?: (() => Date) | undefined;
}

/**
 * A `StateStore` in a `Map`: for tests, and for embedding the loop where state need not outlive
 * the process. It keeps the contract of every store (it runs the shared conformance suite):
 * `set` keeps the replaced version as the backup, unsafe terminal ids throw a
 * `StateStoreError`, and `lock` refuses a live holder and takes over a stale one.
 *
 * The backend is public, so a test can read what was really stored and plant what a crash
 * or another process would leave: {@link MemoryStateStore.documents} and
 * {@link MemoryStateStore.locks}, or a plain copy from {@link MemoryStateStore.snapshot}.
 *
 * @example
 * ```ts
 * const store = new MemoryStateStore();
 * await store.set("default", "loop_state", '{"iteration": 1}');
 * await store.set("default", "loop_state", '{"iteration": 2}');
 * store.snapshot();
 * // { default: { loop_state: { current: '{"iteration": 2}', backup: '{"iteration": 1}' } } }
 *
 * // Plant a corrupt current version, as a crash might leave it:
 * store.documents.get("default")?.set("loop_state", { current: "{broken", backup: '{"iteration": 1}' });
 * ```
 */
export class MemoryStateStore implements StateStore {
  /** The version of the `StateStore` interface this store implements. */
  readonly specificationVersion: "v1" = "v1";

  /**
   * The raw backend: documents by terminal id, then by key. Reading it shows what is really
   * stored; writing it bypasses the store (no checks, no backup), to plant corrupt documents.
   */
  readonly documents: Map<string, Map<string, MemoryDocument>> = new Map();

  /**
   * The raw lock table: the holder of each locked terminal. Writing it bypasses the store, to
   * plant a lock held by another process (live or gone, as `isProcessAlive` tells).
   */
  readonly locks: Map<string, LockHolder> = new Map();

  readonly #isProcessAlive: (holder: LockHolder) => boolean;
  readonly #now: () => Date;

  /**
   * @param options - how to tell a live lock holder from a gone one, and the clock.
   * @throws {TypeError} when an option has the wrong type.
   */
  constructor(options?: MemoryStateStoreOptions | null) {
    this.#isProcessAlive =
      functionOption(options?.isProcessAlive, "isProcessAlive") ?? isLocalProcessAlive;
    this.#now = functionOption(options?.now, "now") ?? (() => new Date());
  }

  /**
   * Reads a document's text, or `null` when it does not exist.
   *
   * @param version - `current` (default) or the `backup` kept by the last `set`.
   * @throws {StateStoreError} for an unsafe terminal id.
   */
  async get(
    terminalId: string,
    key: StateDocumentKey,
    version: StoredVersion = "current",
  ): Promise<string | null> {
    assertSafeTerminalId(terminalId);
    if (version !== "current" && version !== "backup") {
      throw new TypeError(`version must be "current" or "backup", got ${JSON.stringify(version)}`);
    }
    return this.documents.get(terminalId)?.get(key)?.[version] ?? null;
  }

  /**
   * Replaces a document, keeping the replaced version as its backup. Atomic: it completes
   * before any other call runs.
   *
   * @throws {StateStoreError} for an unsafe terminal id.
   */
  async set(terminalId: string, key: StateDocumentKey, text: string): Promise<void> {
    assertSafeTerminalId(terminalId);
    if (typeof text !== "string") {
      throw new TypeError(`A state document must be text (a string), got ${typeof text}`);
    }
    let terminal = this.documents.get(terminalId);
    if (terminal === undefined) {
      terminal = new Map();
      this.documents.set(terminalId, terminal);
    }
    terminal.set(key, { current: text, backup: terminal.get(key)?.current ?? null });
  }

  /**
   * Deletes a document and its backup. Deleting what does not exist is not an error.
   *
   * @throws {StateStoreError} for an unsafe terminal id.
   */
  async delete(terminalId: string, key: StateDocumentKey): Promise<void> {
    assertSafeTerminalId(terminalId);
    const terminal = this.documents.get(terminalId);
    terminal?.delete(key);
    if (terminal?.size === 0) this.documents.delete(terminalId);
  }

  /**
   * Takes the lock on a terminal's state for this process. It never waits: a live holder
   * makes it throw at once, so it takes no `signal`.
   *
   * @throws {StateLockedError} when a live process (this one included) holds the lock.
   * @throws {StateStoreError} for an unsafe terminal id.
   */
  async lock(terminalId: string): Promise<StateLock> {
    assertSafeTerminalId(terminalId);
    const previous = this.locks.get(terminalId) ?? null;
    if (previous !== null && this.#isProcessAlive(previous)) {
      throw new StateLockedError({ terminalId, holder: previous });
    }
    const holder: LockHolder = {
      pid: process.pid,
      host: hostname(),
      startedAt: this.#now().toISOString(),
    };
    this.locks.set(terminalId, holder);
    let released = false;
    return {
      holder,
      takenOverFrom: previous,
      release: async () => {
        if (released) return;
        released = true;
        // A lock taken over since (this one judged stale) belongs to its new holder.
        if (this.locks.get(terminalId) === holder) this.locks.delete(terminalId);
      },
    };
  }

  /** A plain copy of every stored document (current and backup), by terminal id then key. */
  snapshot(): MemoryStateSnapshot {
    return Object.fromEntries(
      [...this.documents].map(([terminalId, terminal]) => [
        terminalId,
        Object.fromEntries([...terminal].map(([key, document]) => [key, { ...document }])),
      ]),
    );
  }
}

/** The option `value` when it is a function or absent; a TypeError otherwise. */
function functionOption<Value extends (...parameters: never[]) => unknown>(
  value: Value | undefined,
  name: string,
): Value | undefined {
  if (value === undefined || typeof value === "function") return value;
  throw new TypeError(`Option \`${name}\` must be a function, got ${typeof value}`);
}
