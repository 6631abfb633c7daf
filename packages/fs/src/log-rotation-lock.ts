import { open, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { errorCodeOf } from "./atomic-write-error-code.js";

/** Timing of {@link withRotationLock}, in milliseconds. */
export interface RotationLockTiming {
  /** How long to wait for another process's lock before giving up on rotating. Default 2,000. */
  readonly waitMs: number;
  /** A lock file older than this is left over by a crashed process and is removed. Default 10,000. */
  readonly staleMs: number;
  /** How often to try again while the lock is held. Default 5. */
  readonly pollMs: number;
}

/** The default {@link RotationLockTiming}: a rotation takes a few renames, far less than these. */
export const DEFAULT_ROTATION_LOCK_TIMING: RotationLockTiming = {
  waitMs: 2_000,
  staleMs: 10_000,
  pollMs: 5,
};

/**
 * Creates `lockPath` exclusively (`O_CREAT | O_EXCL`), recording who holds it. Returns whether
 * this call created it; `false` when it already exists.
 */
async function tryCreateLock(lockPath: string): Promise<boolean> {
  try {
    const handle = await open(lockPath, "wx");
    try {
      await handle.write(
        `${JSON.stringify({ pid: process.pid, host: hostname(), started_at: new Date().toISOString() })}\n`,
      );
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if (errorCodeOf(error) === "EEXIST") return false;
    throw error;
  }
}

/** Removes a lock file older than `staleMs` (its holder crashed). Returns whether it did. */
async function removeIfStale(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const { mtimeMs } = await stat(lockPath);
    if (Date.now() - mtimeMs < staleMs) return false;
    await unlink(lockPath);
    return true;
  } catch (error) {
    // Released (or removed by another process) in the meantime: try again at once.
    if (errorCodeOf(error) === "ENOENT") return true;
    throw error;
  }
}

/**
 * Runs `action` while holding the rotation lock `lockPath`, a file created with `O_EXCL` so
 * that one process at a time, among all the processes appending to a log, rotates it.
 *
 * The lock is advisory and short-lived: it is held for a few renames. A lock older than
 * `timing.staleMs` was left by a crashed process and is removed. When the lock stays taken
 * for `timing.waitMs`, `action` is not run and `false` is returned: the caller appends without
 * rotating (the file overshoots its size limit; nothing is lost) and rotates on a later line.
 *
 * @param lockPath - the lock file (`decision.log.lock`).
 * @param action - what to do under the lock.
 * @param timing - waits and staleness; defaults in {@link DEFAULT_ROTATION_LOCK_TIMING}.
 * @returns whether the lock was taken and `action` ran.
 */
export async function withRotationLock(
  lockPath: string,
  action: () => Promise<void>,
  timing: RotationLockTiming = DEFAULT_ROTATION_LOCK_TIMING,
): Promise<boolean> {
  const deadline = Date.now() + timing.waitMs;
  for (;;) {
    if (await tryCreateLock(lockPath)) {
      try {
        await action();
      } finally {
        await unlink(lockPath).catch(() => undefined);
      }
      return true;
    }
    if (await removeIfStale(lockPath, timing.staleMs)) continue;
    if (Date.now() >= deadline) return false;
    await sleep(timing.pollMs);
  }
}
