import { hostname } from "node:os";
import type { LockHolder } from "@loop/core";

/**
 * Whether a lock's holder may still be running, seen from this process. On this host: the
 * holder is this process, or `process.kill(pid, 0)` finds it (any answer but `ESRCH`, "no such
 * process", counts as running: a process of another user, or any doubt). A pid that is not a
 * positive integer names no process and counts as gone. A holder on another host cannot be
 * checked from here and counts as running, so a lock is never taken from another machine.
 *
 * @param holder - the holder recorded in the lock.
 */
export function isLocalProcessAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  if (!Number.isSafeInteger(holder.pid) || holder.pid <= 0) return false;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
