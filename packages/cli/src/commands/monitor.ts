import type { LoopConfig } from "@loop/core";
import { countOption, parseCommandArgs } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { withCommandErrors } from "../command-errors.js";
import type { CommandModule } from "../command-module.js";
import { CLI_EXIT_CODES } from "../exit-codes.js";
import { readLoopSnapshot } from "../loop-snapshot.js";
import { runLiveMonitor } from "../monitor/live-monitor.js";
import { renderMonitorFrame } from "../monitor/render-frame.js";
import { PROJECT_OPTIONS, type Project, projectOptionsHelp, withLoopProject } from "../project.js";
import { createStyle } from "../style.js";
import { UsageError } from "../usage-error.js";

/** Recent decision events shown unless `--events` says otherwise. */
const DEFAULT_EVENT_COUNT = 10;

const OPTIONS = {
  ...PROJECT_OPTIONS,
  events: { type: "string" },
  once: { type: "boolean" },
} as const;

const HELP = `loop monitor — live dashboard of a running loop (like ralph_monitor.sh)

Usage: loop monitor [options]

Shows the loop of this project's terminal: whether it runs or why it exited, iterations,
a progress bar of the plan's tasks, the current task, calls this hour, cost, the circuit
breaker, the recent decision events, and a countdown while the loop waits for a rate or
usage limit. It redraws when the loop's files change (state, status.json, decision log,
plan) and when the terminal is resized; it never changes them.

Without --terminal-id (or $LOOP_TERMINAL_ID) it shows this terminal's loop if it has one,
else the loop status.json names (a loop running in another terminal of this project),
else the terminal whose state changed last.

Options:
${projectOptionsHelp({ indent: 2, column: 25 })}
  --events <n>           Recent decision events to show (default ${DEFAULT_EVENT_COUNT}; fewer if the
                         terminal is short)
  --once                 Print one frame as plain text and exit 0 (for scripts, and when
                         standard output is not a terminal)
  -h, --help             Show this help

The live dashboard needs a terminal: when standard output is not one and --once is not
given, it says so and exits with code 2.

Keys:
  q, Q, Ctrl+C           Quit (SIGINT, SIGTERM and SIGHUP quit too); the terminal is
                         restored as it was
  r                      Read the files again now

Refresh: the folders of the watched files are watched (fs.watch) and a burst of changes
is read once, 100 ms after it ends; a re-read every 5 s covers a missed change, and a
countdown redraws each second. With the state in a database (--store postgres://…) the
database is read every 2 s. NO_COLOR turns colours off.

Examples:
  loop monitor                          # in a second terminal, while \`loop run\` works
  loop monitor --terminal-id review     # the loop of the terminal named "review"
  loop monitor --events 20
  loop monitor --once | head -n 12      # one plain-text frame
`;

async function monitor(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs("monitor", args, OPTIONS, 0);
  const eventCount = countOption("monitor", "events", values.events) ?? DEFAULT_EVENT_COUNT;
  const once = values.once === true;
  if (!once && io.stdout.isTTY !== true) {
    throw new UsageError(
      "loop monitor: standard output is not a terminal; the live dashboard needs one. Use `loop monitor --once` for one plain-text frame.",
    );
  }
  return withLoopProject("monitor", io, values, (project, config) =>
    once
      ? printOneFrame(project, config, eventCount, io)
      : runLiveMonitor({ io, project, config, eventCount }),
  );
}

/** `loop monitor --once`: one plain-text frame. */
async function printOneFrame(
  project: Project,
  config: LoopConfig,
  eventCount: number,
  io: CliIo,
): Promise<number> {
  const snapshot = await readLoopSnapshot(project, config, { eventCount });
  const terminal = io.stdout.isTTY === true;
  const lines = renderMonitorFrame({
    snapshot,
    now: Date.now(),
    width: terminal ? (io.stdout.columns ?? 80) : Number.POSITIVE_INFINITY,
    height: Number.POSITIVE_INFINITY,
    style: createStyle(io.stdout, io.env),
  });
  io.stdout.write(`${lines.join("\n")}\n`);
  return CLI_EXIT_CODES.complete;
}

/**
 * `loop monitor`: the live dashboard of a loop on a terminal, or one plain-text frame with
 * `--once`. See its {@link CommandModule.help} text.
 */
export const monitorCommand: CommandModule = {
  help: HELP,
  run: (args, io) => withCommandErrors("monitor", io, () => monitor(args, io)),
};
