import { isCompletionReason, isExitReason, type LoopState } from "@loop/core";
import { formatClock, readTime } from "../format/format-clock.js";
import { formatDuration } from "../format/format-duration.js";
import { clockText, type FrameContext, label } from "./frame-context.js";

function runStatus(context: FrameContext, state: LoopState): string {
  const { style } = context;
  const run = state.run;
  if (run === undefined) return style.dim("not started");
  if (run.status === "running") return style.green("running");
  const reason = run.exit_reason ?? "unknown reason";
  const colour = isExitReason(reason) && isCompletionReason(reason) ? style.green : style.yellow;
  return colour(`exited: ${reason}`);
}

/**
 * The iteration, numbered as `loop run` numbers it: while a run is in an iteration, that one
 * (`status.json`'s `loop_count`; the state counts only finished iterations), else the last.
 */
function iterations(context: FrameContext, state: LoopState): string {
  const run = state.run;
  const finished = state.loop_metadata.iterations;
  const current = context.snapshot.status?.loop_count ?? 0;
  const shown = run?.status === "running" ? Math.max(finished, current) : finished;
  const thisRun = run === undefined ? "" : ` (${shown - run.iterations_at_start} this run)`;
  return `iteration ${shown}${thisRun}`;
}

/** The run's start and last update, in the frame's zone, labelled once at the end of the line. */
function times(context: FrameContext, state: LoopState): string[] {
  const parts: string[] = [];
  const clock = (time: number) => formatClock(time, context.now, context.timeZone);
  const started = readTime(state.run?.started_at ?? state.loop_metadata.started_at);
  const updated = readTime(state.loop_metadata.last_update);
  if (started !== null) {
    const running = state.run?.status === "running";
    const ago = running ? `, ${formatDuration(context.now - started)} ago` : "";
    const zone = updated === null ? ` ${context.timeZone}` : "";
    parts.push(`started ${clock(started)}${zone}${ago}`);
  }
  if (updated !== null) parts.push(`updated ${clockText(context, updated)}`);
  return parts;
}

function statusLine(context: FrameContext): string | null {
  const status = context.snapshot.status;
  if (status === null) return null;
  const exit = status.exit_reason === "" ? "" : `, exit reason ${status.exit_reason}`;
  return `${label(context, "Status")}${status.status}, last action ${status.last_action}${exit}`;
}

/**
 * The frame's first lines: the title with the terminal, the run (running or exited with its
 * reason, iterations, start and last update) and `status.json`'s status, or what to do when
 * the terminal has no loop yet.
 */
export function headerLines(context: FrameContext): string[] {
  const { snapshot, style } = context;
  const title = `${style.bold("loop monitor")} · terminal ${style.cyan(snapshot.terminalId)}`;
  const state = snapshot.state;
  const run =
    state === null
      ? style.yellow(
          "no loop state yet: start one with `loop run`; this screen updates when it does",
        )
      : [runStatus(context, state), iterations(context, state), ...times(context, state)].join(
          " · ",
        );
  const status = statusLine(context);
  return [title, `${label(context, "Run")}${run}`, ...(status === null ? [] : [status])];
}
