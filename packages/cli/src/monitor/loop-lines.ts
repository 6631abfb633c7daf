import { readTime } from "../format/format-clock.js";
import { formatCountdown } from "../format/format-duration.js";
import { workerLines } from "../format/worker-lines.js";
import { findActiveWait } from "./active-wait.js";
import { clockText, type FrameContext, LABEL_WIDTH, label } from "./frame-context.js";
import { renderProgressBar } from "./progress-bar.js";

const HOUR_MS = 60 * 60 * 1000;

function progressLine(context: FrameContext): string {
  const { snapshot } = context;
  const progress = snapshot.progress;
  const done = progress?.done ?? snapshot.status?.tasks_done;
  const total = progress?.total ?? snapshot.status?.tasks_total;
  if (done !== undefined && total !== undefined) {
    return `${label(context, "Tasks")}${renderProgressBar(done, total, context.width - LABEL_WIDTH)}`;
  }
  const completed = snapshot.state?.completed_tasks.length ?? 0;
  return `${label(context, "Tasks")}${completed} completed ${context.style.dim("(the plan could not be read)")}`;
}

/** A parallel run's workers, one line each, under a `Workers` label. */
function workersLines(context: FrameContext): string[] {
  const lines = workerLines(context.snapshot.state?.workers, context.now);
  return lines.map((line, index) => `${label(context, index === 0 ? "Workers" : "")}${line}`);
}

function currentLines(context: FrameContext): string[] {
  const workers = workersLines(context);
  return workers.length > 0 ? workers : [currentLine(context)];
}

function currentLine(context: FrameContext): string {
  const { snapshot, style } = context;
  const id = snapshot.state?.current_task_id ?? snapshot.status?.current_task ?? null;
  if (id === null) return `${label(context, "Current")}${style.dim("no task")}`;
  const title = snapshot.progress?.tasks.find((task) => task.id === id)?.title;
  return `${label(context, "Current")}${style.bold(id)}${title === undefined ? "" : ` ${title}`}`;
}

function callsText(context: FrameContext): string | null {
  const { snapshot, now } = context;
  const status = snapshot.status;
  if (status !== null) {
    // status.json's next_reset is a time of day in UTC, ralph_loop.sh's field.
    const reset = status.next_reset === "" ? "" : ` (resets ${status.next_reset} UTC)`;
    return `${status.calls_made_this_hour}/${status.max_calls_per_hour} calls this hour${reset}`;
  }
  const window = snapshot.state?.rate_window;
  if (window === undefined || window === null) return null;
  const start = readTime(window.window_start);
  const calls = start !== null && now - start < HOUR_MS ? window.calls_made : 0;
  return `${calls} calls this hour`;
}

function breakerText(context: FrameContext): string | null {
  const { style } = context;
  const breaker = context.snapshot.state?.circuit_breaker;
  if (context.snapshot.state === null) return null;
  const state = breaker?.state ?? "CLOSED";
  if (state === "OPEN")
    return `breaker ${style.red(`OPEN${breaker?.trip ? ` (${breaker.trip})` : ""}`)}`;
  if (state === "HALF_OPEN") return `breaker ${style.yellow("HALF_OPEN")}`;
  return `breaker ${style.green(state)}`;
}

function limitsLine(context: FrameContext): string | null {
  const { snapshot } = context;
  const cost = snapshot.state?.cost_usd ?? snapshot.status?.cost_usd;
  const parts = [
    callsText(context),
    cost === undefined ? null : `cost $${cost.toFixed(2)}`,
    breakerText(context),
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? null : `${label(context, "Limits")}${parts.join(" · ")}`;
}

function failedLine(context: FrameContext): string | null {
  const failed = context.snapshot.state?.failed_tasks ?? [];
  if (failed.length === 0) return null;
  return `${label(context, "Failed")}${context.style.red(failed.join(", "))}`;
}

/**
 * The countdown of a wait for a limit, `waiting for usage limit: 12m 03s (until 15:00:00 UTC)`, or
 * `null` when the loop is not waiting.
 */
export function waitLine(context: FrameContext): string | null {
  const wait = findActiveWait(context.snapshot, context.now);
  if (wait === null) return null;
  const until = clockText(context, wait.until);
  return context.style.yellow(
    `waiting for ${wait.kind}: ${formatCountdown(wait.until, context.now)} (until ${until})`,
  );
}

/**
 * The loop's lines: the task progress bar, the current task with its title (a parallel run's
 * workers instead, one line each), the calls this hour, cost and circuit breaker, the failed
 * tasks, and the countdown while waiting.
 */
export function loopLines(context: FrameContext): string[] {
  return [
    progressLine(context),
    ...currentLines(context),
    limitsLine(context),
    failedLine(context),
    waitLine(context),
  ].filter((line): line is string => line !== null);
}
