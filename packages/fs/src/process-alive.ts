import { errorCodeOf } from "./atomic-write-error-code.js";

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
 * A zombie (exited, not yet reaped by its parent) still counts as alive; a recycled pid makes
 * a dead holder look alive. Both err on the side of "alive".
 *
 * @param pid - the process id to check.
 * @returns whether the process is (or may be) alive.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCodeOf(error) !== "ESRCH";
  }
}
