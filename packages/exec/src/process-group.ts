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
