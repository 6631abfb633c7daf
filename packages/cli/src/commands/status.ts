import type { LoopConfig } from "@loop/core";
import { countOption, parseCommandArgs } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { withCommandErrors } from "../command-errors.js";
import type { CommandModule } from "../command-module.js";
import { summarizeEvent } from "../format/event-summary.js";
import { exitAdvice } from "../format/exit-advice.js";
import { oneLine } from "../format/fit-line.js";
import { formatClock, formatUtcClock, readTime } from "../format/format-clock.js";
import { formatCost } from "../format/format-cost.js";
import { workerLines } from "../format/worker-lines.js";
import { type LoopSnapshot, readLoopSnapshot } from "../loop-snapshot.js";
import { loadProjectConfig, openProject, PROJECT_OPTIONS, projectOptionsHelp } from "../project.js";
import { adoptProjectState } from "../state/adopt-project-state.js";
import { createStyle, type Style } from "../style.js";

const HELP = `Usage: loop status [options]

Shows a terminal's loop: whether it runs or why it stopped (and what to do about it: what
the agent asked, which limit to raise, \`loop reset\`), the plan's progress, the current task,
iterations, cost, calls this hour, the circuit breaker, metrics and the last decisions. Times
are in UTC.

Without --terminal-id it shows this terminal's loop; if this terminal has none, the loop that
status.json names (a loop running in another terminal of this project), else the terminal
whose state changed last.

Options:
      --json               Everything as one JSON object: { terminalId, stateRoot, state,
                           metrics, status, events, progress, problems }
      --events <n>         How many of the last decisions to show (default 5)
${projectOptionsHelp({ indent: 6, column: 27 })}
  -h, --help               Show this help

Examples:
  loop status
  loop status --terminal-id tmux-_3 --events 20
  loop status --json | jq .state.completed_tasks
`;

const OPTIONS = {
  ...PROJECT_OPTIONS,
  json: { type: "boolean" },
  events: { type: "string" },
} as const;

function runLine(snapshot: LoopSnapshot): string {
  const run = snapshot.state?.run;
  if (!run) return "not started";
  if (run.status === "exited") return `exited: ${run.exit_reason ?? "unknown"}`;
  return notExitedLine(snapshot);
}

/** A run that has not exited: running, crashed, or stopped without a word (from the lock). */
function notExitedLine(snapshot: LoopSnapshot): string {
  const { lock } = snapshot;
  const resume = "`loop run` resumes it";
  if (lock === null) return `stopped without exiting (no loop holds this terminal); ${resume}`;
  const pid = lock.holder === null ? "" : `pid ${lock.holder.pid}`;
  if (lock.alive === false) return `crashed (${pid} gone); ${resume}`;
  const waiting = snapshot.status?.status === "paused" ? "waiting" : "running";
  if (lock.alive === true) return `${waiting} (${pid})`;
  const where =
    lock.holder === null ? "the lock file is unreadable" : `${pid} on ${lock.holder.host}`;
  return `${waiting} (${where})`;
}

/** Why the last run exited and what to do, as `exitAdvice` says it; none while it runs. */
function adviceLines(snapshot: LoopSnapshot, config: LoopConfig, now: number): string[] {
  const run = snapshot.state?.run;
  if (run?.status !== "exited" || run.exit_reason === null) return [];
  return exitAdvice({ reason: run.exit_reason, state: snapshot.state, config, now });
}

function lines(
  snapshot: LoopSnapshot,
  config: LoopConfig,
  stateRoot: string,
  style: Style,
  now: number,
): string[] {
  const { state, progress, metrics, status, events } = snapshot;
  const out = [style.bold(`loop status — terminal ${snapshot.terminalId}`)];
  if (state === null) {
    out.push(
      `No loop state for this terminal in ${stateRoot}.`,
      "Start one with `loop run`, or pick another with --terminal-id.",
    );
  } else {
    const field = (name: string, value: string) => out.push(`  ${name.padEnd(22)}${value}`);
    field("run", runLine(snapshot));
    for (const line of adviceLines(snapshot, config, now)) {
      out.push(style.yellow(`${" ".repeat(24)}${line}`));
    }
    field(
      "plan",
      progress
        ? `${progress.path} — ${progress.done}/${progress.total} tasks done`
        : state.loop_metadata.plan_path,
    );
    const workers = workerLines(state.workers, now);
    if (workers.length > 0) {
      field("workers", `${workers.length} running`);
      for (const line of workers) out.push(`${" ".repeat(24)}${oneLine(line)}`);
    } else field("current task", state.current_task_id ?? "none");
    field("iterations", String(state.loop_metadata.iterations));
    field("completion indicators", String(state.completion_indicators));
    field("completed", state.completed_tasks.join(", ") || "none");
    field("given up", state.failed_tasks.join(", ") || "none");
    const cost = state.cost_usd ?? 0;
    field("cost", cost > 0 ? formatCost(cost) : "unknown (no agent run reported one)");
    field("circuit breaker", state.circuit_breaker?.state ?? "CLOSED");
    const updated = readTime(state.loop_metadata.last_update);
    field(
      "last update",
      updated === null ? state.loop_metadata.last_update : formatUtcClock(updated, now),
    );
    if (status) {
      field(
        "status.json",
        `${status.status}, ${status.last_action}, ${status.calls_made_this_hour}/${status.max_calls_per_hour} calls this hour`,
      );
    }
    if (metrics) {
      field(
        "metrics",
        `${metrics.iterations} iterations, ${metrics.tasks_completed} completed, ${metrics.tasks_failed} failed`,
      );
    }
  }
  if (events.length > 0) {
    out.push("", style.bold("Last decisions (UTC):"));
    for (const event of events) {
      const at = readTime(event.timestamp);
      const time = at === null ? event.timestamp : formatClock(at, now, "UTC");
      out.push(`  ${time}  ${event.event.padEnd(16)} ${summarizeEvent(event)}`);
    }
  }
  for (const problem of snapshot.problems) out.push(style.yellow(`note: ${problem}`));
  return out;
}

async function status(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs("status", args, OPTIONS, 0);
  const eventCount = countOption("status", "events", values.events) ?? 5;
  const project = openProject(io, values);
  await adoptProjectState("status", project, io);
  const config = await loadProjectConfig(project);
  const snapshot = await readLoopSnapshot(project, config, { eventCount });
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({ ...snapshot, stateRoot: project.store.root }, null, 2)}\n`);
    return 0;
  }
  const style = createStyle(io.stdout, io.env);
  const report = lines(snapshot, config, project.store.root, style, Date.now());
  io.stdout.write(`${report.join("\n")}\n`);
  return 0;
}

/** `loop status`: a terminal's loop state, metrics and last decisions. */
export const statusCommand: CommandModule = {
  help: HELP,
  run: (args, io) => withCommandErrors("status", io, () => status(args, io)),
};
