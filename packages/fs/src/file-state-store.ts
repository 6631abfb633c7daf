import { mkdir, readdir, readFile, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import {
  isSafeTerminalId,
  type LockHolder,
  type LockOptions,
  type StateDocumentKey,
  type StateLock,
  StateLockedError,
  type StateSetOptions,
  type StateStore,
  StateStoreError,
  type StoredVersion,
} from "@loop/core";
import { atomicWriteFile } from "./atomic-write.js";
import { syncDirectory } from "./atomic-write-durable.js";
import { errorCodeOf } from "./atomic-write-error-code.js";
import { runExclusively } from "./atomic-write-queue.js";
import { acquireFileLock } from "./file-lock.js";
import { parseLockHolder } from "./file-lock-holder.js";
import { resolveStateRoot, type StatePaths, statePaths } from "./file-state-store-paths.js";
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from "./private-mode.js";
import { isProcessAlive } from "./process-alive.js";

/** Options of {@link createFileStateStore}. */
export interface FileStateStoreOptions {
  /**
   * The state root: an absolute path, or `~` / `~/…` for the home directory. Default
   * `~/.claude/state` (the seed's layout). A relative path is refused.
   */
  readonly root?: string | null | undefined;
  /**
   * How old (by its file's modification time) a lock held by a process on another host must be
   * before it is taken over as stale, in milliseconds: such a holder's pid cannot be checked
   * from here. Default 24 hours.
   */
  readonly otherHostLockMaxAgeMs?: number | null | undefined;
}

/** A `StateStore` on the file system, created by {@link createFileStateStore}. */
export interface FileStateStore extends StateStore {
  /** The absolute state root; documents live in `<root>/terminals/<terminal id>/`. */
  readonly root: string;
  /** Takes a terminal's lock file; see {@link createFileStateStore}. */
  lock(terminalId: string, options?: LockOptions): Promise<StateLock>;
  /**
   * The ids of the terminals that have a folder in the store, sorted (none when the root does
   * not exist yet): for tools that look across terminals, such as `loop status` and `loop monitor`.
   */
  terminals(): Promise<string[]>;
  /**
   * Who holds a terminal's lock, and whether that process still lives, without taking it: for
   * tools that tell a running loop from one that crashed (`loop status` after a `kill -9`).
   * `null` when no lock file exists (no loop holds the terminal).
   */
  lockHolder(terminalId: string): Promise<LockHolderReport | null>;
}

/** What {@link FileStateStore.lockHolder} finds in a terminal's lock file. */
export interface LockHolderReport {
  /** The holder the lock file names; `null` when the file is unreadable (cut short, not JSON). */
  readonly holder: LockHolder | null;
  /**
   * Whether the holder still runs: `true` or `false` for a process on this host (its pid
   * checked), `null` when that cannot be told (a holder on another host, or an unreadable lock).
   */
  readonly alive: boolean | null;
}

/**
 * A durable state store on the file system, in the seed's layout:
 *
 * ```
 * <root>/terminals/<terminal id>/
 *   loop_state.json        current document (<key>.json)
 *   loop_state.json.bak    the version the last set replaced
 *   loop_metrics.json      …
 *   .lock                  {"pid":…,"host":"…","startedAt":"…"} while a loop holds the terminal
 * ```
 *
 * - `set` writes with {@link atomicWriteFile}: temporary file, `fsync`, the old version
 *   hard-linked to `<key>.json.bak`, `rename`, directory `fsync`. A crash at any instant leaves
 *   the old or the new document, and a complete backup. Concurrent `set`s never tear a
 *   document; within one process they apply in call order. A derived document
 *   (`set(…, { durable: false })`, as `updateMetrics` writes `loop_metrics`) is written the same
 *   way without the two `fsync`s: as atomic, backup kept, but a power loss may take its last
 *   version (or, on file systems that do not order data before renames, leave it empty).
 * - `get` returns `null` for a missing document; any other failure (`EACCES`, `EISDIR`, `EIO`…)
 *   is a `StateStoreError` naming the file. `set` and `delete` failures (`ENOSPC`, `EACCES`…)
 *   too: state is not best-effort.
 * - `delete` removes the backup first, then the current document, so a crash in between
 *   leaves the document still there rather than a lone backup.
 * - Terminal ids must be 1–64 characters of `A-Z a-z 0-9 . _ -`, not starting with a dot;
 *   keys 1–128 of `A-Z a-z 0-9 _ -`. Anything else is a `StateStoreError` before any file is
 *   touched, and every path is checked to lie inside `<root>/terminals/`.
 * - `lock` takes `.lock` exclusively (see `acquireFileLock`): a live holder is a
 *   `StateLockedError` at once; a stale one (its pid gone on this host, or on another host
 *   older than `otherHostLockMaxAgeMs`) is taken over and reported in `takenOverFrom`. The lock
 *   is advisory: `get` and `set` do not check it. Release it when the loop ends, also on
 *   signals; a process that dies without releasing leaves a stale lock the next loop takes over.
 *
 * @param options - {@link FileStateStoreOptions}; all optional.
 * @returns the store.
 * @throws {TypeError} for an invalid option (an empty or relative `root`).
 *
 * @example
 * ```ts
 * const store = createFileStateStore({ root: "/var/lib/my-tool/state" });
 * const lock = await store.lock(terminalId);
 * try {
 *   await store.set(terminalId, "loop_state", JSON.stringify(state));
 * } finally {
 *   await lock.release();
 * }
 * ```
 */
export function createFileStateStore(options?: FileStateStoreOptions | null): FileStateStore {
  if (options !== undefined && options !== null && typeof options !== "object") {
    throw new TypeError(`createFileStateStore: options must be an object, got ${typeof options}`);
  }
  const root = resolveStateRoot(options?.root);
  const otherHostMaxAgeMs = checkMaxAge(options?.otherHostLockMaxAgeMs);
  const paths = statePaths(root);
  return {
    specificationVersion: "v1",
    root,
    get: (terminalId, key, version = "current") => readDocument(paths, terminalId, key, version),
    set: (terminalId, key, text, setOptions) =>
      writeDocument(paths, terminalId, key, text, setOptions),
    delete: (terminalId, key) => deleteDocument(paths, terminalId, key),
    lock: (terminalId, lockOptions) =>
      lockTerminal(paths, terminalId, otherHostMaxAgeMs, lockOptions),
    terminals: () => listTerminals(paths),
    lockHolder: (terminalId) => readLockHolder(paths.lock(terminalId)),
  };
}

async function readLockHolder(lockPath: string): Promise<LockHolderReport | null> {
  let text: string;
  try {
    text = await readFile(lockPath, "utf8");
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return null;
    throw failure("read the lock", lockPath, error);
  }
  const holder = parseLockHolder(text);
  if (holder === null) return { holder, alive: null };
  return { holder, alive: holder.host === hostname() ? isProcessAlive(holder.pid) : null };
}

async function listTerminals(paths: StatePaths): Promise<string[]> {
  try {
    const entries = await readdir(paths.terminals, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() && isSafeTerminalId(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return [];
    throw failure("list the terminals", paths.terminals, error);
  }
}

function checkMaxAge(value: number | null | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new TypeError(
      `createFileStateStore: option \`otherHostLockMaxAgeMs\` must be a non-negative number of milliseconds, got ${String(value)}`,
    );
  }
  return value;
}

async function readDocument(
  paths: StatePaths,
  terminalId: string,
  key: StateDocumentKey,
  version: StoredVersion,
): Promise<string | null> {
  if (version !== "current" && version !== "backup") {
    throw new StateStoreError({
      message: `Unknown stored version ${JSON.stringify(version)}: use "current" or "backup"`,
    });
  }
  const path = paths.document(terminalId, key, version);
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return null;
    throw failure(`read the ${version} "${key}" of terminal "${terminalId}"`, path, error);
  }
}

/**
 * Not `async`: the write must enter {@link atomicWriteFile}'s per-file queue synchronously, so
 * that concurrent `set`s apply in call order.
 */
function writeDocument(
  paths: StatePaths,
  terminalId: string,
  key: StateDocumentKey,
  text: string,
  options: StateSetOptions | undefined,
): Promise<void> {
  try {
    const path = paths.document(terminalId, key, "current");
    const backupPath = paths.document(terminalId, key, "backup");
    if (typeof text !== "string") {
      throw new StateStoreError({
        message: `A state document must be text (a string), got ${typeof text}: serialise it first`,
      });
    }
    return atomicWriteFile(path, text, {
      backupPath,
      createDirectory: true,
      mode: PRIVATE_FILE_MODE,
      durable: options?.durable !== false,
    }).catch((error: unknown) => {
      throw failure(`write "${key}" of terminal "${terminalId}"`, path, error);
    });
  } catch (error) {
    return Promise.reject(error);
  }
}

async function deleteDocument(
  paths: StatePaths,
  terminalId: string,
  key: StateDocumentKey,
): Promise<void> {
  const path = paths.document(terminalId, key, "current");
  const backupPath = paths.document(terminalId, key, "backup");
  await runExclusively(path, async () => {
    const removedBackup = await removeIfPresent(backupPath, `delete the backup of "${key}"`);
    const removedCurrent = await removeIfPresent(path, `delete "${key}"`);
    if (!removedBackup && !removedCurrent) return;
    try {
      await syncDirectory(paths.directory(terminalId));
    } catch (error) {
      throw failure(`delete "${key}" of terminal "${terminalId}"`, path, error);
    }
  });
}

/** Removes `path`; `false` when it was not there. */
async function removeIfPresent(path: string, action: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === "ENOENT") return false;
    throw failure(action, path, error);
  }
}

async function lockTerminal(
  paths: StatePaths,
  terminalId: string,
  otherHostMaxAgeMs: number | undefined,
  options: LockOptions | undefined,
): Promise<StateLock> {
  const path = paths.lock(terminalId);
  const signal = options?.signal;
  let attempt: Awaited<ReturnType<typeof acquireFileLock>>;
  try {
    signal?.throwIfAborted();
    await mkdir(paths.directory(terminalId), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    attempt = await acquireFileLock(path, { signal, otherHostMaxAgeMs });
  } catch (error) {
    if (signal?.aborted && error === signal.reason) throw error;
    throw failure(`lock the state of terminal "${terminalId}"`, path, error);
  }
  if (!attempt.acquired) throw new StateLockedError({ terminalId, holder: attempt.holder });
  return attempt.lock;
}

/** A `StateStoreError` saying what failed, on which file, and why (the cause's message). */
function failure(action: string, path: string, cause: unknown): StateStoreError {
  if (StateStoreError.isInstance(cause)) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StateStoreError({ message: `Could not ${action} at ${path}: ${reason}`, cause });
}
