import type { Loop, LoopResult } from "@loop/core";
import type { CliOutput } from "../cli-io.js";
import { fitLine } from "../format/fit-line.js";
import { formatClock } from "../format/format-clock.js";
import { formatCountdown } from "../format/format-duration.js";
import type { Style } from "../style.js";
import type { RunView } from "./run-tracker.js";

/** How `loop run` shows progress on stderr. */
export interface RunDisplay {
  /** The view changed: redraw the status line (terminal only). */
  update(view: Readonly<RunView>): void;
  /** Prints a line that stays. */
  line(text: string): void;
  /** Clears the status line and stops its timer. */
  finish(): void;
}

/** The one-line summary of a running loop: iteration, task, tasks, calls, cost, or the wait. */
export function statusLine(view: Readonly<RunView>, now: number): string {
  const parts: string[] = [];
  if (view.wait !== null && view.wait.until > now) {
    const what = view.wait.kind === "usage_limit" ? "usage limit" : "hourly call limit";
    parts.push(`waiting for the ${what}: ${formatCountdown(view.wait.until, now)} left`);
  } else if (view.iteration > 0) {
    parts.push(`iteration ${view.iteration}`);
    parts.push(view.task ? `${view.task.id} ${view.task.title}` : "wrap-up");
  } else {
    parts.push("starting");
  }
  if (view.tasksTotal !== null) parts.push(`tasks ${view.tasksDone}/${view.tasksTotal}`);
  parts.push(`calls ${view.callsThisHour}/${view.maxCallsPerHour} this hour`);
  parts.push(`$${view.costUsd.toFixed(2)}`);
  return parts.join(" · ");
}

/**
 * The terminal display: lines that stay above a status line redrawn in place (`\r` and erase
 * line), with a countdown ticking once a second while the loop waits for a limit.
 */
export function createTerminalDisplay(
  output: CliOutput,
  style: Style,
  now: () => number,
): RunDisplay {
  let current: Readonly<RunView> | null = null;
  let shown = false;
  let ticker: ReturnType<typeof setInterval> | undefined;
  const clear = () => {
    if (shown) output.write("\r\u001b[2K");
    shown = false;
  };
  const draw = () => {
    if (current === null) return;
    clear();
    // One column is left free, so the line never wraps and `\r` can redraw it.
    const width = output.columns === undefined ? Number.POSITIVE_INFINITY : output.columns - 1;
    output.write(style.cyan(fitLine(statusLine(current, now()), width)));
    shown = true;
  };
  const tick = () => {
    const waiting =
      current?.wait !== null && current?.wait !== undefined && current.wait.until > now();
    if (waiting && ticker === undefined) {
      ticker = setInterval(draw, 1000);
      ticker.unref?.();
    } else if (!waiting && ticker !== undefined) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
  return {
    update(view) {
      current = view;
      draw();
      tick();
    },
    line(text) {
      clear();
      output.write(`${text}\n`);
      draw();
    },
    finish() {
      if (ticker !== undefined) clearInterval(ticker);
      ticker = undefined;
      clear();
      current = null;
    },
  };
}

/** The display for logs and pipes: plain lines only, no status line. */
export function createPlainDisplay(output: CliOutput): RunDisplay {
  return {
    update() {},
    line(text) {
      output.write(`${text}\n`);
    },
    finish() {},
  };
}

/** Prints the loop's notable events as lines of `display`. */
export function showEvents(loop: Loop, display: RunDisplay, style: Style, now: () => number): void {
  loop.on("iteration-start", ({ iteration, task, attempt, kind }) => {
    const what =
      kind === "wrap_up" || task === null
        ? "wrap-up (verify and signal)"
        : `${task.id} ${task.title}`;
    display.line(
      style.dim(`iteration ${iteration}: ${what}${attempt > 1 ? ` (attempt ${attempt})` : ""}`),
    );
  });
  loop.on("iteration-end", ({ iteration, result }) => {
    if (result.success || result.usageLimit !== undefined) return;
    display.line(
      style.red(`✗ iteration ${iteration} failed: ${result.error ?? "the agent's run failed"}`),
    );
  });
  loop.on("task-complete", ({ taskId }) => display.line(style.green(`✓ ${taskId} complete`)));
  loop.on("task-failed", ({ taskId, attempts, reason }) =>
    display.line(style.red(`✗ ${taskId} given up after ${attempts} attempts: ${reason}`)),
  );
  loop.on("wait", ({ kind, until, message }) => {
    const what = kind === "usage_limit" ? "usage limit" : "hourly call limit";
    display.line(
      style.yellow(
        `waiting for the ${what} until ${formatClock(until, now(), "UTC")} UTC (${formatCountdown(until, now())}): ${message}`,
      ),
    );
  });
  loop.on("verification", ({ passed, unmet, concerns }) => {
    if (passed) return;
    display.line(
      style.yellow(
        `verification: ${unmet.length} requirement(s) unmet, ${concerns.length} open concern(s)`,
      ),
    );
  });
}

/** The closing line of a run. */
export function resultLine(result: LoopResult, style: Style): string {
  const summary = `exit: ${result.exitReason} after ${result.iterations} iteration(s) · ${result.tasksCompleted.length} task(s) done${result.tasksFailed.length > 0 ? `, ${result.tasksFailed.length} given up` : ""} · $${result.costUsd.toFixed(2)}`;
  if (result.error) return style.red(`${summary}\n${result.error.message}`);
  return result.complete ? style.green(style.bold(summary)) : style.yellow(summary);
}
