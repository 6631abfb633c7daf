import { hasProcTable, listProcesses } from "./process-table.js";

/** How long to wait for a group to be gone after SIGKILL before giving up on it. */
export const SIGKILL_WAIT_MS = 2000;

/** How often a group (or a survivor) is checked while waiting for it to end. */
export const POLL_INTERVAL_MS = 25;

/**
 * Sends `signal` to the whole process group led by `pid` (the child was spawned `detached`, so
 * it leads its own group and its descendants share it). Falls back to the child alone where
 * groups are unsupported (Windows). A group already gone is not an error.
 *
 * @param pid - the group leader's process id.
 * @param signal - the signal to send.
 */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch {
    // ESRCH: the group has already exited.
  }
}

/**
 * Whether a process of the group `pgid` still runs. On Linux a process that has ended and only
 * waits to be reaped (a zombie, which `kill(2)` still finds) does not count.
 *
 * @param pgid - the group's id (its leader's pid).
 */
export function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(process.platform === "win32" ? pgid : -pgid, 0);
  } catch (error) {
    // EPERM: a member runs as another user (it exists); ESRCH: none is left.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  if (!hasProcTable) return true;
  return listProcesses().some((entry) => entry.pgid === pgid);
}

/** Resolves after `ms` milliseconds (a timer that keeps the process alive meanwhile). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Waits until `done()` holds or the time (`Date.now()`) reaches `deadline`, checking every
 * {@link POLL_INTERVAL_MS}.
 *
 * @returns whether `done()` held.
 */
export async function waitUntil(done: () => boolean, deadline: number): Promise<boolean> {
  for (;;) {
    if (done()) return true;
    if (Date.now() >= deadline) return false;
    await pause(Math.min(POLL_INTERVAL_MS, Math.max(1, deadline - Date.now())));
  }
}

/**
 * Waits until no process of the group `pgid` runs: SIGKILL goes to the group at `killAt` if one
 * still does (its SIGTERM was sent before), and the wait gives up {@link SIGKILL_WAIT_MS} later.
 * The timers it sets keep the process alive, so a caller that awaits it does not exit while
 * the group runs.
 *
 * @param pgid - the group's id.
 * @param killAt - when to send SIGKILL, epoch milliseconds (`Date.now()`).
 * @returns whether the group is gone.
 */
export async function awaitGroupEnd(pgid: number, killAt: number): Promise<boolean> {
  const alive = () => processGroupAlive(pgid);
  if (await waitUntil(() => !alive(), killAt)) return true;
  signalProcessGroup(pgid, "SIGKILL");
  return waitUntil(() => !alive(), Date.now() + SIGKILL_WAIT_MS);
}

const runningGroups = new Set<number>();

function killRunningGroups(): void {
  for (const pgid of runningGroups) signalProcessGroup(pgid, "SIGKILL");
}

/**
 * Marks the group `pgid` as running until the returned function is called: if this process
 * exits meanwhile (`process.exit`, a second Ctrl+C), the group gets SIGKILL on the way out, so
 * no agent outlives a process that exits while waiting for it.
 *
 * @param pgid - the group's id.
 * @returns the function that ends the mark (call it once the group is gone).
 */
export function holdProcessGroup(pgid: number): () => void {
  if (runningGroups.size === 0) process.on("exit", killRunningGroups);
  runningGroups.add(pgid);
  return () => {
    runningGroups.delete(pgid);
    if (runningGroups.size === 0) process.off("exit", killRunningGroups);
  };
}
