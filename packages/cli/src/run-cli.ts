import type { CliIo } from "./cli-io.js";
import { COMMANDS } from "./commands.js";
import { CLI_EXIT_CODES } from "./exit-codes.js";
import { CLI_VERSION } from "./version.js";

// This module is what `loop --version` loads: it imports no command and no SDK package.

function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const commands = Object.entries(COMMANDS).map(
    ([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`,
  );
  return [
    "loop — Ralph-style autonomous development loops for any coding agent",
    "",
    "Usage: loop <command> [options]",
    "",
    "Commands:",
    ...commands,
    "",
    "Options:",
    "  -h, --help     Show help (also `loop <command> --help`)",
    "  -v, --version  Print the version",
    "",
    "Examples:",
    "  loop init                          # plan.md and .claude/loop/config.yaml",
    "  loop validate                      # check them",
    "  loop run plan.md --dry-run         # the next task, prompt and command; runs nothing",
    "  loop run plan.md -c 50             # run with Claude Code, at most 50 calls an hour",
    "  loop monitor                       # in another terminal: watch it",
    "",
    "Docs: docs/cli.md",
    "",
  ].join("\n");
}

/** Whether the arguments ask for help (before any `--`). */
function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (arg === "--help" || arg === "-h") return true;
  }
  return false;
}

/**
 * Runs the `loop` command line: `loop <command> [options]`, `loop --help`, `loop --version`.
 * Each command's module is loaded only when it runs.
 *
 * @param argv - the arguments after the executable (`process.argv.slice(2)`).
 * @param io - the streams, environment and folder (`processIo()` for the real ones).
 * @returns the exit code: see {@link CLI_EXIT_CODES}.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(["status", "--json"], processIo());
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v") {
    io.stdout.write(`${CLI_VERSION}\n`);
    return CLI_EXIT_CODES.complete;
  }
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    const topic = first === "help" ? rest[0] : undefined;
    if (topic !== undefined && COMMANDS[topic] !== undefined) {
      io.stdout.write((await COMMANDS[topic].load()).help);
      return CLI_EXIT_CODES.complete;
    }
    (first === undefined ? io.stderr : io.stdout).write(overview());
    return first === undefined ? CLI_EXIT_CODES.usage : CLI_EXIT_CODES.complete;
  }
  const entry = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (entry === undefined) {
    const { closeMatch } = await import("./close-match.js");
    const suggestion = closeMatch(first, Object.keys(COMMANDS));
    const hint = suggestion === null ? "" : ` Did you mean "${suggestion}"?`;
    io.stderr.write(
      `loop: unknown command "${first}".${hint} Commands: ${Object.keys(COMMANDS).join(", ")}. See \`loop --help\`.\n`,
    );
    return CLI_EXIT_CODES.usage;
  }
  const command = await entry.load();
  if (asksForHelp(rest)) {
    io.stdout.write(command.help);
    return CLI_EXIT_CODES.complete;
  }
  return command.run(rest, io);
}
