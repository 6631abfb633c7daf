import type { CliIo } from "../cli-io.js";
import type { CommandModule } from "../command-module.js";
import { hookUsageExitCode } from "../hook/hook-usage-exit-code.js";
import { runStopHook } from "../hook/run-stop-hook.js";
import { DEFAULT_CONFIG_PATH } from "../project.js";

/** One `loop hook` subcommand: a Claude Code hook event. */
interface HookSubcommand {
  /** One line for the usage error. */
  readonly summary: string;
  readonly run: (args: readonly string[], io: CliIo) => Promise<number>;
}

const SUBCOMMANDS: Readonly<Record<string, HookSubcommand>> = {
  stop: {
    summary:
      "the ralph loop's Stop hook: keep the session going while prd.json has failing stories",
    run: runStopHook,
  },
};

const HELP = `Usage: loop hook stop [--config <file>] [--state-dir <dir>]

Claude Code hooks. \`loop hook stop\` is the ralph loop's Stop hook (docs/stop-hook.md): Claude
Code runs it when the session is about to stop and passes the hook's JSON on stdin
(session_id, transcript_path, cwd, hook_event_name…). It reads the loop's state file
(.claude/ralph-loop.local.md) and prd.json, decides with the same exit policy as \`loop run\`,
and prints {"decision":"block","reason":…} to keep the session going with the next story, or
nothing to let it stop. Register it with \`loop init --hook install\`.

Paths are relative to the project: $CLAUDE_PROJECT_DIR (which Claude Code sets for hooks),
else the input's cwd. Attempts per story, streaks and the circuit breaker are kept in the
state store between stops, under the terminal id ralph-<session_id>.

Options:
  --config <file>    Config file (default ${DEFAULT_CONFIG_PATH}; missing is fine)
  --state-dir <dir>  State root (default $LOOP_STATE_DIR, else .claude/loop/state)
  -h, --help         Show this help

Exit codes: always 0 when run by Claude Code, also when the input, the state file or the
config cannot be used: the reason goes to stderr and the session may stop, so a broken hook
never traps it. Exit code 2 would make Claude Code refuse the stop and feed stderr to Claude;
it is only used for a wrong command line typed in a terminal (piped, that is 1: an error
Claude Code shows you, without blocking).

Examples:
  loop init --hook install           # register it in .claude/settings.json
  echo '{"session_id":"abc","cwd":"'"$PWD"'","hook_event_name":"Stop"}' | loop hook stop
`;

async function hook(args: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  const subcommand =
    name !== undefined && Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (subcommand !== undefined) return subcommand.run(rest, io);
  const list = Object.entries(SUBCOMMANDS).map(([key, entry]) => `  ${key}  ${entry.summary}`);
  const what = name === undefined ? "missing hook name" : `unknown hook "${name}"`;
  io.stderr.write(`loop hook: ${what}. Hooks:\n${list.join("\n")}\nSee \`loop hook --help\`.\n`);
  return hookUsageExitCode(io);
}

/** `loop hook <event>`: Claude Code hooks; `loop hook stop` is the ralph loop's Stop hook. */
export const hookCommand: CommandModule = {
  help: HELP,
  run: hook,
};
