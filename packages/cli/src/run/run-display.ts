import type { Loop, LoopConfig, LoopResult } from "@loop/core";
import type { CliOutput } from "../cli-io.js";
import { exitAdvice } from "../format/exit-advice.js";
import { fitLine, visibleWidth } from "../format/fit-line.js";
import { formatUtcClock } from "../format/format-clock.js";
import { formatCost } from "../format/format-cost.js";
import { formatCountdown, formatDuration } from "../format/format-duration.js";
import { plural } from "../format/plural.js";
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

/** The cost so far as the status line shows it: unknown while no agent run reported one. */
function viewCost(view: Readonly<RunView>): string {
  return formatCost(view.costReported || view.costUsd > 0 ? view.costUsd : null);
}

/** The status line with the task's title as given (`null`: the task's id alone). */
function statusParts(view: Readonly<RunView>, now: number, title: string | null): string {
  const parts: string[] = [];
  if (view.wait !== null && view.wait.until > now) {
    const what = view.wait.kind === "usage_limit" ? "usage limit" : "hourly call limit";
    parts.push(`waiting for the ${what}: ${formatCountdown(view.wait.until, now)} left`);
  } else if (view.iteration > 0) {
    const elapsed =
      view.iterationStartedAt === null ? "" : ` (${formatDuration(now - view.iterationStartedAt)})`;
    parts.push(`iteration ${view.iteration}${elapsed}`);
    parts.push(
      view.task ? (title === null ? view.task.id : `${view.task.id} ${title}`) : "wrap-up",
    );
  } else {
    parts.push("starting");
  }
  if (view.tasksTotal !== null) parts.push(`tasks ${view.tasksDone}/${view.tasksTotal}`);
  parts.push(`calls ${view.callsThisHour}/${view.maxCallsPerHour} this hour`);
  parts.push(viewCost(view));
  return parts.join(" · ");
}

/**
 * The one-line summary of a running loop: the iteration with the time it has run, the task,
 * tasks done, calls this hour and cost; or the wait's countdown. On a narrow terminal
 * (`width`) the task's title is cut first, so the counts and the cost stay in sight; only when
 * even the id alone does not fit is the line itself cut.
 *
 * @param view - what the loop is doing.
 * @param now - the current time, epoch milliseconds.
 * @param width - the columns available (default: no limit).
 */
export function statusLine(
  view: Readonly<RunView>,
  now: number,
  width = Number.POSITIVE_INFINITY,
): string {
  const full = statusParts(view, now, view.task?.title ?? null);
  if (visibleWidth(full) <= width || view.task === null) return fitLine(full, width);
  const bare = statusParts(view, now, null);
  // The title takes the room left, after the space that separates it from the id.
  const room = width - visibleWidth(bare) - 1;
  if (room < 2) return fitLine(bare, width);
  return statusParts(view, now, fitLine(view.task.title, room));
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
    output.write(style.cyan(statusLine(current, now(), width)));
    shown = true;
  };
  // A countdown while waiting, and the iteration's elapsed time while it runs, tick each second.
  const tick = () => {
    const waiting =
      current?.wait !== null && current?.wait !== undefined && current.wait.until > now();
    const running = current !== null && current.iterationStartedAt !== null;
    if ((waiting || running) && ticker === undefined) {
      ticker = setInterval(draw, 1000);
      ticker.unref?.();
    } else if (!waiting && !running && ticker !== undefined) {
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

/**
 * Prints the loop's notable events as lines of `display`: each iteration's start, and its end
 * with how long it took and what it cost (`cost unknown` when the agent did not say), failed
 * runs with their error, completed and given-up tasks, waits (until when, in UTC) and failed
 * verifications.
 */
export function showEvents(loop: Loop, display: RunDisplay, style: Style, now: () => number): void {
  const startedAt = new Map<number, number>();
  loop.on("iteration-start", ({ iteration, task, attempt, kind, workspace }) => {
    startedAt.set(iteration, now());
    const what =
      kind === "wrap_up" || task === null
        ? "wrap-up (verify and signal)"
        : `${task.id} ${task.title}`;
    const again = attempt > 1 ? ` (attempt ${attempt})` : "";
    const where = workspace === undefined ? "" : ` on ${workspace.branch}`;
    display.line(style.dim(`iteration ${iteration}: ${what}${again}${where}`));
  });
  loop.on("integration", ({ taskId, branch, outcome, files }) => {
    if (outcome === "integrated") {
      display.line(style.dim(`${taskId} merged from ${branch}`));
      return;
    }
    const why = outcome === "conflict" ? `conflicts in ${files.join(", ")}` : "could not be merged";
    display.line(
      style.yellow(
        `${taskId} ${why}: rolled back, its work kept; the next attempt, if any, starts afresh`,
      ),
    );
  });
  loop.on("iteration-end", ({ iteration, result }) => {
    const took = formatDuration(now() - (startedAt.get(iteration) ?? now()));
    startedAt.delete(iteration);
    const cost = formatCost(result.costUsd);
    if (result.success || result.usageLimit !== undefined) {
      display.line(style.dim(`iteration ${iteration} ended: ${took} · ${cost}`));
      return;
    }
    display.line(
      style.red(
        `✗ iteration ${iteration} failed after ${took} · ${cost}: ${result.error ?? "the agent's run failed"}`,
      ),
    );
  });
  loop.on("task-complete", ({ taskId }) => display.line(style.green(`✓ ${taskId} complete`)));
  loop.on("task-failed", ({ taskId, attempts, reason }) =>
    display.line(style.red(`✗ ${taskId} given up after ${plural(attempts, "attempt")}: ${reason}`)),
  );
  loop.on("wait", ({ kind, until, message }) => {
    const what = kind === "usage_limit" ? "usage limit" : "hourly call limit";
    display.line(
      style.yellow(
        `waiting for the ${what} until ${formatUtcClock(until, now())} (${formatCountdown(until, now())}): ${message}`,
      ),
    );
  });
  loop.on("verification", ({ passed, unmet, concerns }) => {
    if (passed) return;
    const counts = `verification: ${plural(unmet.length, "requirement")} unmet, ${plural(concerns.length, "open concern")}`;
    const named = [
      ...unmet.map((text) => `  unmet: ${text}`),
      ...concerns.map((concern) => `  ${concern.kind}: ${concern.text}`),
    ];
    display.line(style.yellow([counts, ...named].join("\n")));
  });
}

/** What {@link resultLine} reads beyond the result. */
export interface ResultLineContext {
  /** The run's config, for the advice (cooldown, stop_when, attempts…). */
  readonly config: LoopConfig;
  /** The run's view: whether any agent run reported its cost. */
  readonly view?: Readonly<RunView> | undefined;
  /** The current time, epoch milliseconds. */
  readonly now: number;
}

/**
 * The closing lines of a run: `exit: <reason> after … · tasks · cost`, then, for a stop a person
 * can get out of, why and what to do, indented (see `exitAdvice`), or the error's message.
 *
 * @param result - the loop's result.
 * @param style - colours.
 * @param context - the config, the view and the time, for the advice; without it, no advice.
 */
export function resultLine(
  result: LoopResult,
  style: Style,
  context?: ResultLineContext | undefined,
): string {
  const known = context?.view === undefined || context.view.costReported || result.costUsd > 0;
  const givenUp = result.tasksFailed.length > 0 ? `, ${result.tasksFailed.length} given up` : "";
  const summary = `exit: ${result.exitReason} after ${plural(result.iterations, "iteration")} · ${plural(result.tasksCompleted.length, "task")} done${givenUp} · ${formatCost(known ? result.costUsd : null)}`;
  if (result.error) return style.red(`${summary}\n${result.error.message}`);
  if (result.complete && result.iterations === 0 && result.totalIterations === 0) {
    const note = "  every task of the plan was already checked: there was nothing to run";
    return style.green(`${style.bold(summary)}\n${note}`);
  }
  if (result.complete) return style.green(style.bold(summary));
  const advice =
    context === undefined
      ? []
      : exitAdvice({
          reason: result.exitReason,
          state: result.state,
          config: context.config,
          checks: result.decision?.checks ?? null,
          now: context.now,
        });
  return style.yellow([summary, ...advice.map((line) => `  ${line}`)].join("\n"));
}
