import { readFileSync } from "node:fs";
import { errorCodeOf } from "./atomic-write-error-code.js";

/**
 * Whether `/proc` says `pid` is a zombie (state `Z`: exited, not yet reaped by its parent), on
 * Linux; `false` where there is no `/proc` or it cannot be read.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // `pid (comm) S …`: the command may hold spaces and parentheses, so read after the last `)`.
    return stat
      .slice(stat.lastIndexOf(")") + 1)
      .trim()
      .startsWith("Z");
  } catch {
    return false;
  }
}

/**
 * Whether a process with id `pid` exists on this machine, by sending it signal 0 (which checks
 * without signalling).
 *
 * - `ESRCH` (no such process) → `false`.
 * - `EPERM` (it exists but belongs to another user) → `true`.
 * - Any other failure → `true`: when in doubt the process is taken to be alive, so a lock is
 *   never taken over from a holder that might still run.
 * - A `pid` that is not a positive safe integer → `false` (it cannot name a process, and
 *   `process.kill` would treat `0` and negative ids as process groups).
 *
 * A zombie (exited, not yet reaped by its parent — its parent may never reap it) is not alive,
 * where `/proc` tells (Linux): it runs nothing and would hold a lock for good. A recycled pid
 * makes a dead holder look alive, erring on the side of "alive".
 *
 * @param pid - the process id to check.
 * @returns whether the process is (or may be) alive.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch (error) {
    return errorCodeOf(error) !== "ESRCH";
  }
}
