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

/** The shortest time between two writes of `status.json`, in milliseconds. */
export const STATUS_MIN_INTERVAL_MS = 100;

/** Options of {@link createStatusWriter}. */
export interface StatusWriterOptions {
  /** The shortest time between two writes; default {@link STATUS_MIN_INTERVAL_MS}. */
  readonly minIntervalMs?: number;
  /** The clock, in epoch milliseconds; default `Date.now`. */
  readonly now?: () => number;
  /**
   * Runs `task` in `ms` milliseconds and returns what cancels it; default an unref'd
   * `setTimeout` (a status waiting for its turn never keeps the process alive).
   */
  readonly schedule?: (task: () => void, ms: number) => () => void;
}

/** Writes a status; `immediately` skips the wait for the interval (the run's last status). */
export type StatusWriter = (
  status: Status,
  options?: { readonly immediately?: boolean },
) => Promise<void>;

function scheduleUnref(task: () => void, ms: number): () => void {
  const timer = setTimeout(task, ms);
  timer.unref();
  return () => clearTimeout(timer);
}

/**
 * Writes `status.json` through `file`, one write at a time, never failing the loop: the first
 * failure is reported through `onError`, later ones are dropped. The file is a snapshot and
 * only the latest status counts: a status is written once the current turn of the event loop
 * is over ({@link afterThisTurn}), or, when the last write began less than `minIntervalMs`
 * ago, once that interval is over; a newer status given meanwhile replaces it. A loop whose
 * iterations take less than the interval (a fast agent) so writes the file a few times a
 * second, not several times an iteration, and one whose iterations take longer writes each
 * step as before. Each call resolves once a status at least as new as its own is written.
 */
export function createStatusWriter(
  file: StatusFile,
  onError: (error: unknown) => void,
  options: StatusWriterOptions = {},
): StatusWriter {
  const minIntervalMs = options.minIntervalMs ?? STATUS_MIN_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? scheduleUnref;
  let reported = false;
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  /** The status to write next, replaced by any newer one until then; `start` ends its wait. */
  let next: { status: Status; written: Promise<void>; start: () => void } | null = null;
  const write = (status: Status): Promise<void> => {
    lastWriteAt = now();
    return file.write(status).catch((error: unknown) => {
      if (reported) return;
      reported = true;
      onError(error);
    });
  };
  return (status, writeOptions) => {
    const immediately = writeOptions?.immediately === true;
    if (next !== null) {
      next.status = status;
      if (immediately) next.start();
      return next.written;
    }
    let resolveWritten: () => void = () => undefined;
    let cancel: (() => void) | null = null;
    let started = false;
    const pending = {
      status,
      written: new Promise<void>((resolve) => {
        resolveWritten = resolve;
      }),
      start: () => {
        if (started) return;
        started = true;
        cancel?.();
        void afterThisTurn(() => {
          next = null;
          return write(pending.status);
        }).then(resolveWritten);
      },
    };
    next = pending;
    const wait = lastWriteAt + minIntervalMs - now();
    if (immediately || wait <= 0) pending.start();
    else cancel = schedule(pending.start, wait);
    return pending.written;
  };
}
