import { type ExitReason, isErrorReason, rateWindowStart } from "@loop/core";
import type { Status, StatusFile } from "@loop/fs";
import { afterThisTurn } from "./after-this-turn.js";
import type { RunView } from "./run-tracker.js";

/** What `status.json` says about the loop beyond the {@link RunView}. */
export interface StatusContext {
  readonly terminalId: string;
  readonly planPath: string;
}

/** The `status` word of `status.json` for a finished loop, in ralph_loop.sh's vocabulary. */
function finalStatus(reason: ExitReason, complete: boolean): string {
  if (complete) return "completed";
  if (reason === "aborted") return "stopped";
  return isErrorReason(reason) ? "failed" : "halted";
}

/** The time of day the hourly call counter resets, `HH:MM:SS` in UTC (the top of the next hour). */
function nextReset(now: number): string {
  return new Date(rateWindowStart(now) + 3_600_000).toISOString().slice(11, 19);
}

/** `status.json` for a loop's view, at `now`; `exit` once it has ended. */
export function statusOf(
  view: Readonly<RunView>,
  context: StatusContext,
  now: number,
  exit: { readonly reason: ExitReason; readonly complete: boolean } | null = null,
): Status {
  const waiting = exit === null && view.wait !== null && view.wait.until > now;
  return {
    timestamp: new Date(now).toISOString(),
    loop_count: view.iteration,
    calls_made_this_hour: view.callsThisHour,
    max_calls_per_hour: view.maxCallsPerHour,
    last_action: exit === null ? view.lastAction : "exited",
    status:
      exit === null ? (waiting ? "paused" : "running") : finalStatus(exit.reason, exit.complete),
    exit_reason: exit?.reason ?? "",
    next_reset: nextReset(now),
    current_task: exit === null ? (view.task?.id ?? null) : null,
    tasks_done: view.tasksDone,
    ...(view.tasksTotal === null ? {} : { tasks_total: view.tasksTotal }),
    cost_usd: view.costUsd,
    wait_until: waiting && view.wait !== null ? new Date(view.wait.until).toISOString() : null,
    terminal_id: context.terminalId,
    plan_path: context.planPath,
  };
}

/**
 * Writes `status.json` through `file`, one write at a time, never failing the loop: the first
 * failure is reported through `onError`, later ones are dropped. A status is written once the
 * current turn of the event loop is over ({@link afterThisTurn}), and a newer one given
 * meanwhile replaces it: the file is a snapshot, and only the latest counts. Each call resolves
 * once a status at least as new as its own is written.
 */
export function createStatusWriter(
  file: StatusFile,
  onError: (error: unknown) => void,
): (status: Status) => Promise<void> {
  let reported = false;
  /** The status to write once this turn is over, replaced by any newer one until then. */
  let next: { status: Status; written: Promise<void> } | null = null;
  return (status: Status): Promise<void> => {
    if (next !== null) {
      next.status = status;
      return next.written;
    }
    const pending = { status, written: Promise.resolve() };
    pending.written = afterThisTurn(() => {
      next = null;
      return file.write(pending.status).catch((error: unknown) => {
        if (reported) return;
        reported = true;
        onError(error);
      });
    });
    next = pending;
    return pending.written;
  };
}
