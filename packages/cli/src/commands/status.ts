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
import { runLine } from "../format/run-line.js";
import { workerLines } from "../format/worker-lines.js";
import { type LoopSnapshot, readLoopSnapshot } from "../loop-snapshot.js";
import { PROJECT_OPTIONS, type Project, projectOptionsHelp, withLoopProject } from "../project.js";
import { readLoopList } from "../status/loop-list.js";
import { loopListLines } from "../status/loop-list-lines.js";
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
      --all                Every loop the store knows, one line each: terminal, project,
                           host, state, last event — every project's loops in a database a
                           fleet shares (--store postgres://…), this state root's otherwise
      --json               Everything as one JSON object: { terminalId, stateRoot, state,
                           metrics, status, events, progress, problems }
      --events <n>         How many of the last decisions to show (default 5)
${projectOptionsHelp({ indent: 6, column: 27 })}
  -h, --help               Show this help

Examples:
  loop status
  loop status --terminal-id tmux-_3 --events 20
  loop status --json | jq .state.completed_tasks
  loop status --all --store postgres://loop@db.internal/loops
`;

const OPTIONS = {
  ...PROJECT_OPTIONS,
  json: { type: "boolean" },
  all: { type: "boolean" },
  events: { type: "string" },
} as const;

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
    field("run", runLine(state, snapshot.lock, snapshot.status?.status === "paused"));
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
  return withLoopProject("status", io, values, (project, config) =>
    values.all === true
      ? statusAll(project, config, values.json === true, io)
      : statusOne(project, config, values.json === true, eventCount, io),
  );
}

/** `loop status --all`: every loop of the store, a line each. */
async function statusAll(
  project: Project,
  config: LoopConfig,
  json: boolean,
  io: CliIo,
): Promise<number> {
  const rows = await readLoopList(project, config);
  if (json) {
    io.stdout.write(`${JSON.stringify({ store: project.backend.where, loops: rows }, null, 2)}\n`);
    return 0;
  }
  const style = createStyle(io.stdout, io.env);
  io.stdout.write(`${loopListLines(rows, project.backend.where, style, Date.now()).join("\n")}\n`);
  return 0;
}

/** `loop status`: one terminal's loop. */
async function statusOne(
  project: Project,
  config: LoopConfig,
  json: boolean,
  eventCount: number,
  io: CliIo,
): Promise<number> {
  const snapshot = await readLoopSnapshot(project, config, { eventCount });
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ ...snapshot, stateRoot: project.backend.where }, null, 2)}\n`,
    );
    return 0;
  }
  const style = createStyle(io.stdout, io.env);
  const report = lines(snapshot, config, project.backend.where, style, Date.now());
  io.stdout.write(`${report.join("\n")}\n`);
  return 0;
}

/** `loop status`: a terminal's loop state, metrics and last decisions. */
export const statusCommand: CommandModule = {
  help: HELP,
  run: (args, io) => withCommandErrors("status", io, () => status(args, io)),
};
