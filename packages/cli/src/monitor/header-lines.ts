import type { LoopState } from "@loop/core";
import { formatClock, readTime } from "../format/format-clock.js";
import { formatDuration } from "../format/format-duration.js";
import { type FrameContext, label } from "./frame-context.js";

function runStatus(context: FrameContext, state: LoopState): string {
  const { style } = context;
  const run = state.run;
  if (run === undefined) return style.dim("not started");
  if (run.status === "running") return style.green("running");
  const reason = run.exit_reason ?? "unknown reason";
  const colour =
    reason === "all_tasks_complete" || reason === "prd_complete" ? style.green : style.yellow;
  return colour(`exited: ${reason}`);
}

function iterations(state: LoopState): string {
  const total = state.loop_metadata.iterations;
  const run = state.run;
  const thisRun = run === undefined ? "" : ` (${total - run.iterations_at_start} this run)`;
  return `iteration ${total}${thisRun}`;
}

function times(context: FrameContext, state: LoopState): string[] {
  const parts: string[] = [];
  const started = readTime(state.run?.started_at ?? state.loop_metadata.started_at);
  if (started !== null) {
    const running = state.run?.status === "running";
    const ago = running ? `, ${formatDuration(context.now - started)} ago` : "";
    parts.push(`started ${formatClock(started, context.now, context.timeZone)}${ago}`);
  }
  const updated = readTime(state.loop_metadata.last_update);
  if (updated !== null)
    parts.push(`updated ${formatClock(updated, context.now, context.timeZone)}`);
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
      : [runStatus(context, state), iterations(state), ...times(context, state)].join(" · ");
  const status = statusLine(context);
  return [title, `${label(context, "Run")}${run}`, ...(status === null ? [] : [status])];
}
