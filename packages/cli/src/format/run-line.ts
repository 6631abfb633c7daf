import type { LoopState } from "@loop/core";
import type { LockHolderReport } from "@loop/fs";

/**
 * A loop's run in a few words, as `loop status` shows it: `not started`, `exited: <reason>`,
 * `running (pid 4242)`, `waiting (…)` while it waits for a limit, `crashed (pid 4242 gone)`, or
 * stopped without exiting — told apart by the terminal's lock.
 *
 * @param state - the terminal's state, `null` when it has none.
 * @param lock - who holds the terminal's lock, `null` when nobody does.
 * @param waiting - whether the loop says it waits (`status.json`'s `paused`).
 */
export function runLine(
  state: LoopState | null,
  lock: LockHolderReport | null,
  waiting: boolean,
): string {
  const run = state?.run;
  if (!run) return "not started";
  if (run.status === "exited") return `exited: ${run.exit_reason ?? "unknown"}`;
  const resume = "`loop run` resumes it";
  if (lock === null) return `stopped without exiting (no loop holds this terminal); ${resume}`;
  const pid = lock.holder === null ? "" : `pid ${lock.holder.pid}`;
  if (lock.alive === false) return `crashed (${pid} gone); ${resume}`;
  const doing = waiting ? "waiting" : "running";
  if (lock.alive === true) return `${doing} (${pid})`;
  const where =
    lock.holder === null ? "the lock file is unreadable" : `${pid} on ${lock.holder.host}`;
  return `${doing} (${where})`;
}
