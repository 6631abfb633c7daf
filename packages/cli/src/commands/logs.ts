import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { systemClock } from "@loop/core";
import { type IterationLogFile, listIterationLogs, listIterationLogTerminals } from "@loop/fs";
import { countOption, parseCommandArgs, textOption } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { withCommandErrors } from "../command-errors.js";
import type { CommandModule } from "../command-module.js";
import { CLI_EXIT_CODES } from "../exit-codes.js";
import { chooseLogTerminal } from "../logs/choose-log-terminal.js";
import { FOLLOW_POLL_MS, followLogs } from "../logs/follow-logs.js";
import { logListLines } from "../logs/log-list.js";
import { createLogSource } from "../logs/log-source.js";
import { type LogPlace, logsOfTask, noLogsError, selectLog } from "../logs/select-log.js";
import { PROJECT_OPTIONS, type Project, projectOptionsHelp, withLoopProject } from "../project.js";
import { createStyle } from "../style.js";
import { UsageError } from "../usage-error.js";

const HELP = `Usage: loop logs [options]

Shows what the agent printed in one iteration, as \`loop run\` kept it: for Claude Code the
raw stream-json, for other agents their stdout (then stderr). Each log starts with a header:
iteration, task, terminal, start and end, success, decision, cost, tokens, error. Without
options: the newest log.

\`loop run\` keeps one file per iteration in the config's logging.iteration_logs
(.claude/loop/logs/iterations/<terminal id>/), the newest logging.iteration_logs_keep (50) of
each terminal. Without --terminal-id the logs shown are this terminal's; if it has none, those
of the loop status.json names (running in another terminal), else the terminal's that logged
last.

Options:
  -i, --iteration <n>    The log of iteration n
  -t, --task <id>        The newest log of that task (with --list, all of its logs)
  -l, --list             List the logs, oldest first: iteration, task, start, duration,
                         result, cost and file
  -f, --follow           Print the newest log, then each new one as it is written, until
                         Ctrl+C (it looks every ${FOLLOW_POLL_MS / 1000} s)
${projectOptionsHelp({ indent: 2, column: 25 })}
  -h, --help             Show this help

Exit codes: 0 shown (--follow: stopped by Ctrl+C) · 1 no such log, or a file error · 2 usage.

Examples:
  loop logs                            # what the agent printed in the last iteration
  loop logs --iteration 12 | less
  loop logs --task TASK-003 --list     # every kept log of TASK-003
  loop logs -f                         # in a second terminal, while \`loop run\` works
  loop logs | grep '"type":"result"'   # Claude Code's result event of the last iteration
`;

const OPTIONS = {
  ...PROJECT_OPTIONS,
  iteration: { type: "string", short: "i" },
  task: { type: "string", short: "t" },
  list: { type: "boolean", short: "l" },
  follow: { type: "boolean", short: "f" },
} as const;

/** Signals that end `--follow`. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** `path` as the user reads it: relative to the project folder when inside it. */
function shown(project: Project, path: string): string {
  const inside = relative(project.cwd, path);
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? path : inside;
}

/** The terminals of the project other than `terminalId` that have logs. */
async function otherTerminals(folder: string, terminalId: string): Promise<string[]> {
  const others: string[] = [];
  for (const id of await listIterationLogTerminals(folder)) {
    if (id !== terminalId && (await listIterationLogs({ folder, terminalId: id })).length > 0) {
      others.push(id);
    }
  }
  return others;
}

/** Prints a log's text as it is; a log deleted meanwhile (retention) is skipped. */
async function printLog(io: CliIo, log: IterationLogFile): Promise<void> {
  let text: string;
  try {
    text = await readFile(log.path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  io.stdout.write(text);
}

/** Runs `--follow` until Ctrl+C (SIGINT), SIGTERM or SIGHUP. */
async function follow(
  io: CliIo,
  project: Project,
  folder: string,
  task: string | undefined,
): Promise<number> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  let terminalId: string | null = null;
  try {
    await followLogs({
      list: createLogSource({
        folder,
        task,
        // Until a log is shown, a loop that starts in another terminal is found too.
        terminal: async () => terminalId ?? chooseLogTerminal(project, folder),
      }),
      print: async (log) => {
        terminalId = log.terminalId;
        await printLog(io, log);
      },
      onWaiting: () =>
        io.stderr.write(
          `loop logs: no iteration log yet${task === undefined ? "" : ` of task ${task}`} in ${shown(project, folder)}; waiting for \`loop run\` to write one (Ctrl+C to stop).\n`,
        ),
      sleep: systemClock.sleep,
      signal: controller.signal,
    });
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
  }
  return CLI_EXIT_CODES.complete;
}

async function logs(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs("logs", args, OPTIONS, 0);
  const iteration = countOption("logs", "iteration", values.iteration);
  const task = textOption(values.task);
  if (task !== undefined && task.trim() === "") {
    throw new UsageError("loop logs: --task needs a task id, e.g. --task TASK-003.");
  }
  if (values.follow === true && (iteration !== undefined || values.list === true)) {
    throw new UsageError(
      "loop logs: --follow shows new logs as they come; it does not go with --iteration or --list.",
    );
  }
  return withLoopProject("logs", io, values, async (project, config) => {
    const folder = project.resolve(config.logging.iteration_logs);
    if (values.follow === true) return follow(io, project, folder, task);

    const terminalId = await chooseLogTerminal(project, folder);
    const all = await listIterationLogs({ folder, terminalId });
    const place: LogPlace = {
      terminalId,
      folder: shown(project, join(folder, terminalId)),
      otherTerminals: all.length === 0 ? await otherTerminals(folder, terminalId) : [],
    };
    if (all.length === 0) throw noLogsError(place);
    if (values.list === true) {
      const listed = logsOfTask(all, task).filter(
        (log) => iteration === undefined || log.iteration === iteration,
      );
      if (listed.length === 0) selectLog(all, { iteration, task }, place); // throws, saying why
      const heading = `Iteration logs of terminal ${terminalId} (${place.folder}):`;
      const style = createStyle(io.stdout, io.env);
      io.stdout.write(`${logListLines(listed, heading, style, Date.now()).join("\n")}\n`);
      return CLI_EXIT_CODES.complete;
    }
    await printLog(io, selectLog(all, { iteration, task }, place));
    return CLI_EXIT_CODES.complete;
  });
}

/**
 * `loop logs`: the per-iteration logs `loop run` keeps — the newest, one iteration's, a task's,
 * a list, or new ones as they come (`--follow`). See its {@link CommandModule.help} text.
 */
export const logsCommand: CommandModule = {
  help: HELP,
  run: (args, io) => withCommandErrors("logs", io, () => logs(args, io)),
};
