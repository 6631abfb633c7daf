import { link, open, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { LockHolder } from "@loop/core";
import {
  hardLinkUnsupportedCodes,
  syncDirectory,
  writeNewFileDurably,
} from "./atomic-write-durable.js";
import { errorCodeOf } from "./atomic-write-error-code.js";
import { removeStaleTemporaryFiles, temporaryPathFor } from "./atomic-write-temporary-file.js";
import { formatLockHolder, parseLockHolder, unknownLockHolder } from "./file-lock-holder.js";
import { isProcessAlive } from "./process-alive.js";

/**
 * A lock held by a process on another host is taken to be alive (its pid cannot be checked
 * from here) until the lock file is older than this: 24 hours.
 */
export const defaultOtherHostLockMaxAgeMs = 24 * 60 * 60 * 1000;

/**
 * An unreadable lock file (empty, cut short, not a lock) is given this long, from its
 * modification time, to be completed by a writer before it is taken over as stale: 1 second.
 */
export const defaultUnreadableLockGraceMs = 1000;

/**
 * The guard file serialising takeovers (`<lock>.takeover`, naming its writer like a lock) is
 * held for a few file operations; one older than this, or whose writer on this host is gone, was
 * left by a crashed process and is removed: 5 seconds.
 */
const takeoverGuardMaxAgeMs = 5000;

/** Pause between attempts while another process completes a lock file or a takeover. */
const retryPauseMs = 10;

/** Options of {@link acquireFileLock}. */
export interface FileLockOptions {
  /** Aborts the attempt (it throws the signal's reason). */
  readonly signal?: AbortSignal | null | undefined;
  /** See {@link defaultOtherHostLockMaxAgeMs}. */
  readonly otherHostMaxAgeMs?: number | null | undefined;
  /** See {@link defaultUnreadableLockGraceMs}. */
  readonly unreadableGraceMs?: number | null | undefined;
}

/** A lock file held by this process. */
export interface FileLock {
  /** This process, as recorded in the lock file. */
  readonly holder: LockHolder;
  /** The previous holder when a stale lock was taken over, else `null`. */
  readonly takenOverFrom: LockHolder | null;
  /**
   * Removes the lock file if it still holds this lock's exact content (a lock that has been
   * taken over meanwhile is left to its new holder). Idempotent; a failed release may be
   * retried.
   */
  release(): Promise<void>;
}

/** The outcome of {@link acquireFileLock}: the lock, or the live process that holds it. */
export type FileLockAttempt =
  | { readonly acquired: true; readonly lock: FileLock }
  | { readonly acquired: false; readonly holder: LockHolder };

/** A lock file as read: its holder (`null` when unreadable), raw text and modification time. */
interface ExistingLock {
  readonly holder: LockHolder | null;
  readonly text: string;
  readonly modifiedAtMs: number;
}

/**
 * Takes an exclusive, advisory lock by creating `lockPath`, whose content names this process
 * (`{pid, host, startedAt}`, see {@link formatLockHolder}). It does not wait for a live holder.
 *
 * - Creating: the content is written and flushed to a unique temporary file, which is then
 *   hard-linked to `lockPath`. `link` fails if `lockPath` exists, like `O_CREAT | O_EXCL`, and
 *   the lock appears with its whole content at once. Where hard links are unsupported it falls
 *   back to `open(lockPath, "wx")` and a write.
 * - A live holder: returns `{ acquired: false, holder }` at once.
 * - Whether a holder is alive: on this host, whether its pid exists ({@link isProcessAlive});
 *   on another host (a shared network directory), it is taken to be alive until the lock file
 *   is older than `otherHostMaxAgeMs` (24 hours by default).
 * - An unreadable lock file is stale once it is older than `unreadableGraceMs` (1 second): a
 *   writer without hard links may be between creating and writing it. Until then the attempt
 *   waits for it.
 * - A stale lock is taken over: under a guard file (`<lock>.takeover`, created with
 *   `O_CREAT | O_EXCL`), the lock is read again and, only if it is still the stale one,
 *   replaced by `rename` with this process's lock. The lock file never disappears meanwhile,
 *   so of any number of contenders exactly one wins; the others find the winner's live lock.
 *   The winner reports the stale holder in `takenOverFrom` (pid `0` and host `"unknown"` for
 *   an unreadable lock). Not covered: a holder on another host that releases at the very
 *   instant its over-age lock is taken over.
 *
 * Releasing on process exit is the caller's job; a lock left by a process that died is taken
 * over by the next attempt on the same host. Not re-entrant: a second attempt from the process
 * that holds the lock finds it held by a live process (itself).
 *
 * @param lockPath - the lock file; its directory must exist.
 * @param options - {@link FileLockOptions}.
 * @returns the lock, or its live holder.
 * @throws the signal's reason when aborted; Node.js system errors (`EACCES`…) when the lock
 *   file cannot be created or read.
 */
export async function acquireFileLock(
  lockPath: string,
  options?: FileLockOptions | null,
): Promise<FileLockAttempt> {
  const signal = options?.signal ?? undefined;
  signal?.throwIfAborted();
  const judge = lockJudge(options);
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
  };
  const text = formatLockHolder(holder);
  await removeStaleTemporaryFiles(lockPath);
  const deadline = Date.now() + takeoverGuardMaxAgeMs + judge.unreadableGraceMs + 5000;
  for (;;) {
    signal?.throwIfAborted();
    if (await createLockFile(lockPath, text)) {
      return { acquired: true, lock: heldLock(lockPath, text, holder, null) };
    }
    const existing = await readLockFile(lockPath);
    if (existing === null) continue;
    const verdict = judge.verdict(existing);
    if (verdict === "live" && existing.holder !== null) {
      return { acquired: false, holder: existing.holder };
    }
    if (verdict === "stale" && (await replaceStaleLock(lockPath, existing.text, text))) {
      const takenOverFrom = existing.holder ?? unknownLockHolder(existing.modifiedAtMs);
      return { acquired: true, lock: heldLock(lockPath, text, holder, takenOverFrom) };
    }
    if (Date.now() > deadline) {
      throw new Error(`Gave up taking the lock ${lockPath}: it stayed unreadable or contended`);
    }
    await pause(retryPauseMs, signal);
  }
}

interface LockJudge {
  readonly unreadableGraceMs: number;
  verdict(existing: ExistingLock): "live" | "stale" | "wait";
}

function lockJudge(options: FileLockOptions | null | undefined): LockJudge {
  const otherHostMaxAgeMs = options?.otherHostMaxAgeMs ?? defaultOtherHostLockMaxAgeMs;
  const unreadableGraceMs = options?.unreadableGraceMs ?? defaultUnreadableLockGraceMs;
  const thisHost = hostname();
  return {
    unreadableGraceMs,
    verdict(existing) {
      const ageMs = Date.now() - existing.modifiedAtMs;
      if (existing.holder === null) return ageMs > unreadableGraceMs ? "stale" : "wait";
      if (existing.holder.host === thisHost) {
        return isProcessAlive(existing.holder.pid) ? "live" : "stale";
      }
      return ageMs > otherHostMaxAgeMs ? "stale" : "live";
    },
  };
}

/** Creates the lock file with `text`; `false` when it already exists. */
async function createLockFile(lockPath: string, text: string): Promise<boolean> {
  const temporary = temporaryPathFor(lockPath);
  try {
    await writeNewFileDurably(temporary, text);
  } catch (error) {
    await removeQuietly(temporary);
    throw error;
  }
  try {
    await link(temporary, lockPath);
  } catch (error) {
    const code = errorCodeOf(error) ?? "";
    if (code === "EEXIST") return false;
    if (!hardLinkUnsupportedCodes.has(code)) throw error;
    return await createLockFileWithoutLink(lockPath, text);
  } finally {
    await removeQuietly(temporary);
  }
  await syncDirectory(dirname(lockPath));
  return true;
}

async function createLockFileWithoutLink(lockPath: string, text: string): Promise<boolean> {
  try {
    await writeNewFileDurably(lockPath, text);
  } catch (error) {
    if (errorCodeOf(error) === "EEXIST") return false;
    throw error;
  }
  await syncDirectory(dirname(lockPath));
  return true;
}

/** Reads the lock file, or `null` when there is none. */
async function readLockFile(lockPath: string): Promise<ExistingLock | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(lockPath, "r");
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return null;
    throw error;
  }
  try {
    const text = await handle.readFile("utf8");
    const { mtimeMs } = await handle.stat();
    const holder = parseLockHolder(text);
    // A start time that is not a time (a lock another tool wrote) is the file's own time, so
    // reporting the holder never fails.
    const started =
      holder !== null && Number.isNaN(Date.parse(holder.startedAt))
        ? { ...holder, startedAt: new Date(mtimeMs).toISOString() }
        : holder;
    return { holder: started, text, modifiedAtMs: mtimeMs };
  } finally {
    await handle.close();
  }
}

/**
 * Replaces the stale lock whose content was `staleText` by this process's lock `text`, under
 * the takeover guard, only if the lock file still has that content. The new lock is written to
 * a temporary file and renamed over the stale one, so the lock file never disappears and no
 * other process can create one in between: the process that replaces the stale lock is the
 * only winner. Returns `false` when another process is taking it over, or the lock changed
 * (look again).
 */
async function replaceStaleLock(
  lockPath: string,
  staleText: string,
  text: string,
): Promise<boolean> {
  const guard = `${lockPath}.takeover`;
  try {
    await writeFile(guard, text, { flag: "wx" });
  } catch (error) {
    if (errorCodeOf(error) !== "EEXIST") throw error;
    if (await isAbandonedGuard(guard)) await removeQuietly(guard);
    return false;
  }
  try {
    let currentText: string;
    try {
      currentText = await readFile(lockPath, "utf8");
    } catch (error) {
      if (errorCodeOf(error) === "ENOENT") return false;
      throw error;
    }
    if (currentText !== staleText) return false;
    const temporary = temporaryPathFor(lockPath);
    try {
      await writeNewFileDurably(temporary, text);
      await rename(temporary, lockPath);
    } catch (error) {
      await removeQuietly(temporary);
      throw error;
    }
    await syncDirectory(dirname(lockPath));
    return true;
  } finally {
    await removeQuietly(guard);
  }
}

function heldLock(
  lockPath: string,
  text: string,
  holder: LockHolder,
  takenOverFrom: LockHolder | null,
): FileLock {
  let releasing: Promise<void> | null = null;
  return {
    holder,
    takenOverFrom,
    release() {
      releasing ??= releaseLockFile(lockPath, text).catch((error: unknown) => {
        releasing = null;
        throw error;
      });
      return releasing;
    },
  };
}

async function releaseLockFile(lockPath: string, text: string): Promise<void> {
  let currentText: string;
  try {
    currentText = await readFile(lockPath, "utf8");
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return;
    throw error;
  }
  if (currentText !== text) return;
  try {
    await unlink(lockPath);
  } catch (error) {
    if (errorCodeOf(error) === "ENOENT") return;
    throw error;
  }
  await syncDirectory(dirname(lockPath));
}

/**
 * Whether a takeover guard was left by a crashed process: its writer (on this host) is gone,
 * or it is older than {@link takeoverGuardMaxAgeMs} (a guard is held for milliseconds).
 */
async function isAbandonedGuard(guard: string): Promise<boolean> {
  let existing: ExistingLock | null;
  try {
    existing = await readLockFile(guard);
  } catch {
    return false;
  }
  if (existing === null) return false;
  if (Date.now() - existing.modifiedAtMs > takeoverGuardMaxAgeMs) return true;
  const writer = existing.holder;
  return writer !== null && writer.host === hostname() && !isProcessAlive(writer.pid);
}

async function removeQuietly(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch {
    // Already gone.
  }
}

/** Waits `ms`; an abort rejects with the signal's own reason. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, undefined, signal === undefined ? undefined : { signal });
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  }
}
