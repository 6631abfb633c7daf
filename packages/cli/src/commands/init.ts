import { isAbsolute, resolve } from "node:path";
import { STOP_HOOK_BLOCK_CAP_VARIABLE } from "@loop/claude";
import { DEFAULT_CONFIG } from "@loop/core";
import { loadConfigFile } from "@loop/fs";
import { type OptionSpec, parseCommandArgs, textOption } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { withCommandErrors } from "../command-errors.js";
import type { CommandModule } from "../command-module.js";
import { CLI_EXIT_CODES } from "../exit-codes.js";
import { normalizeHookArgument, readHookMode } from "../init/hook-argument.js";
import { ignoreLoopFiles } from "../init/ignore-loop-files.js";
import { installStopHook, type StopHookInstall } from "../init/install-stop-hook.js";
import type { ScaffoldOutcome } from "../init/scaffold-file.js";
import { type ScaffoldedFile, scaffoldProject } from "../init/scaffold-project.js";
import { chooseStopHookCommand, type StopHookCommandChoice } from "../init/stop-hook-command.js";
import {
  CLAUDE_SETTINGS_PATH,
  STOP_HOOK_COMMAND,
  type StopHookSettingsOptions,
  stopHookSettings,
} from "../init/stop-hook-settings.js";
import { DEFAULT_CONFIG_PATH } from "../project.js";
import { createStyle, type Style } from "../style.js";
import { displayPath } from "../validate/display-path.js";

const OPTIONS = {
  force: { type: "boolean" },
  hook: { type: "string" },
  plan: { type: "string" },
  config: { type: "string" },
} as const satisfies OptionSpec;

const HELP = `Usage: loop init [--force] [--hook [print|install]] [--plan <file>] [--config <file>]

Scaffolds a project for the loop:
  plan.md                           an example plan: RALPH_STATUS, TASK-001… tasks and
                                    Acceptance Criteria (docs/plan-format.md)
  ${DEFAULT_CONFIG_PATH}          every setting, commented out at its default, with
                                    its description (docs/configuration.md)
  .claude/loop/config.schema.json   the config's JSON Schema, which the config's first line
                                    (# yaml-language-server: $schema=./config.schema.json)
                                    points editors at: completion and checks as you type,
                                    offline, for the schema of the installed version
  .gitignore                        lines that keep what \`loop run\` writes out of git: the
                                    state (.claude/loop/state/), the logs (.claude/loop/logs/)
                                    and .claude/loop/status.json; existing lines are kept

Existing files are kept (reported as "kept"), so running init again is safe and exits 0;
--force overwrites them. The schema is generated, so it is always brought up to date.

Options:
  --force                 Overwrite an existing plan and config
  --hook [print|install]  The ralph loop's Claude Code Stop hook (docs/stop-hook.md):
                          print (the default) shows the ${CLAUDE_SETTINGS_PATH} snippet that
                          runs \`loop hook stop\` (this CLI's absolute command when \`loop\`
                          is not on PATH: hooks run in a shell without your aliases) and sets
                          ${STOP_HOOK_BLOCK_CAP_VARIABLE} to limits.max_iterations, so
                          Claude Code does not end the loop after 8 blocks; install merges
                          it into ${CLAUDE_SETTINGS_PATH}, keeping every other setting and
                          hook and never adding it twice (a file that is not valid JSON is
                          left alone: exit code 1)
  --plan <file>           Where the plan goes (default ${DEFAULT_CONFIG.plans.default_plan}); the config's
                          plans.default_plan then names it
  --config <file>         Where the config goes (default ${DEFAULT_CONFIG_PATH})
  -h, --help              Show this help

Exit codes: 0 every file is in place (created or kept), 1 a file could not be written or
${CLAUDE_SETTINGS_PATH} is not valid JSON, 2 wrong arguments.

Examples:
  loop init                      # plan.md, config and schema
  loop init --plan docs/plan.md  # the plan elsewhere
  loop init --hook install       # and register the Stop hook in ${CLAUDE_SETTINGS_PATH}
  loop init --force              # start over from the templates
`;

const OUTCOME_NOTES: Readonly<Record<ScaffoldOutcome, string>> = {
  created: "",
  kept: " (exists; --force overwrites it)",
  overwritten: "",
  updated: " (brought up to date)",
  unchanged: " (already up to date)",
};

function outcomeWord(outcome: ScaffoldOutcome, style: Style): string {
  const word = outcome.padEnd(11);
  if (outcome === "created" || outcome === "updated") return style.green(word);
  if (outcome === "overwritten") return style.yellow(word);
  return style.dim(word);
}

function reportFile(io: CliIo, style: Style, file: ScaffoldedFile): void {
  const shown = displayPath(io.cwd, file.path);
  io.stdout.write(`${outcomeWord(file.outcome, style)} ${shown}${OUTCOME_NOTES[file.outcome]}\n`);
}

function printHookSnippet(io: CliIo, settings: StopHookSettingsOptions): void {
  io.stdout.write(
    `\nAdd this to ${CLAUDE_SETTINGS_PATH} (or run \`loop init --hook install\`):\n${JSON.stringify(stopHookSettings(settings), null, 2)}\n`,
  );
}

/** What a user who wants a portable hook command does. */
function installAdvice(cliFolder: string | null): string {
  const target = cliFolder ?? "<the loop repository>/packages/cli";
  return `put \`loop\` on PATH (\`npm install -g ${target}\`, see the README) and run \`loop init --hook install\` again`;
}

function reportCommandChoice(io: CliIo, style: Style, choice: StopHookCommandChoice): void {
  if (choice.kind !== "absolute") return;
  io.stdout.write(
    style.yellow(
      `loop init: \`loop\` is not on PATH (an alias does not reach the shell Claude Code runs hooks in), so the hook runs this CLI by its path: ${choice.command}. That path is this machine's; for a command that works on every machine, ${installAdvice(choice.cliFolder)}.\n`,
    ),
  );
}

function reportHook(
  io: CliIo,
  style: Style,
  path: string,
  install: StopHookInstall,
  settings: Required<StopHookSettingsOptions>,
): number {
  const shown = displayPath(io.cwd, path);
  if (install.outcome === "invalid") {
    const where =
      install.line === undefined ? shown : `${shown}:${install.line}:${install.column ?? 1}`;
    io.stderr.write(
      `${where}: ${install.message}\nloop init: ${shown} was left as it is; fix it, or add the Stop hook by hand (\`loop init --hook print\` shows it).\n`,
    );
    return CLI_EXIT_CODES.error;
  }
  const what = `Stop hook \`${settings.command}\`, ${STOP_HOOK_BLOCK_CAP_VARIABLE}=${settings.blockCap}`;
  const notes: Record<typeof install.outcome, string> = {
    created: ` (${what})`,
    updated: ` (${what})`,
    present: " (the Stop hook is already installed)",
  };
  const word =
    install.outcome === "present"
      ? style.dim("kept".padEnd(11))
      : outcomeWord(install.outcome, style);
  io.stdout.write(`${word} ${shown}${notes[install.outcome]}\n`);
  return CLI_EXIT_CODES.complete;
}

/** The hook's settings: its command, and a block cap of the config's `limits.max_iterations`. */
async function hookSettings(
  io: CliIo,
  configPath: string,
): Promise<{ choice: StopHookCommandChoice; settings: Required<StopHookSettingsOptions> }> {
  const config = await loadConfigFile(configPath);
  const choice = await chooseStopHookCommand(io);
  const command = choice.kind === "none" ? STOP_HOOK_COMMAND : choice.command;
  return { choice, settings: { command, blockCap: config.limits.max_iterations } };
}

async function init(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs("init", normalizeHookArgument(args), OPTIONS, 0);
  const hook = readHookMode(values.hook);
  const at = (path: string) => (isAbsolute(path) ? path : resolve(io.cwd, path));
  const style = createStyle(io.stdout, io.env);
  const configPath = at(textOption(values.config) ?? DEFAULT_CONFIG_PATH);
  const files = await scaffoldProject({
    cwd: io.cwd,
    planPath: at(textOption(values.plan) ?? DEFAULT_CONFIG.plans.default_plan),
    configPath,
    force: values.force === true,
  });
  for (const file of files) reportFile(io, style, file);
  const ignored = await ignoreLoopFiles(io.cwd);
  const ignoreNote =
    ignored.outcome === "unchanged"
      ? " (already ignores the loop's state, logs and status.json)"
      : ` (ignores the loop's state, logs and status.json: ${ignored.added.join(" ")})`;
  io.stdout.write(
    `${outcomeWord(ignored.outcome, style)} ${displayPath(io.cwd, ignored.path)}${ignoreNote}
`,
  );
  const hookSetup = hook === null ? null : await hookSettings(io, configPath);
  if (hook === "install" && hookSetup !== null) {
    if (hookSetup.choice.kind === "none") {
      io.stderr.write(
        `loop init: \`loop\` is not on PATH, so the shell Claude Code runs hooks in cannot run \`loop hook stop\` (it would exit 127; an alias does not reach it). ${installAdvice(null)}, or add the hook by hand with a command that runs this CLI (\`loop init --hook print\` shows the snippet).\n`,
      );
      return CLI_EXIT_CODES.error;
    }
    const path = at(CLAUDE_SETTINGS_PATH);
    const installed = await installStopHook(path, hookSetup.settings);
    const code = reportHook(io, style, path, installed, hookSetup.settings);
    if (code !== CLI_EXIT_CODES.complete) return code;
    reportCommandChoice(io, style, hookSetup.choice);
  }
  const plan = files.find((file) => file.role === "plan");
  if (plan !== undefined && (plan.outcome === "created" || plan.outcome === "overwritten")) {
    const shown = displayPath(io.cwd, plan.path);
    // A kept config may name another plan: say which one `loop run` runs.
    const config = await loadConfigFile(configPath);
    const runs = resolve(io.cwd, config.plans.default_plan) === plan.path;
    const how = runs
      ? "`loop run`"
      : `\`loop run ${shown}\` (a plain \`loop run\` runs ${config.plans.default_plan}, the config's plans.default_plan)`;
    io.stdout.write(
      `\nNext: edit ${shown}, check it with \`loop validate\`, run it with ${how}.\n`,
    );
  }
  if (hook === "print" && hookSetup !== null) {
    printHookSnippet(io, hookSetup.settings);
    reportCommandChoice(io, style, hookSetup.choice);
  }
  return CLI_EXIT_CODES.complete;
}

/** `loop init`: scaffold plan.md, the config and its schema; print or install the Stop hook. */
export const initCommand: CommandModule = {
  help: HELP,
  run: (args, io) => withCommandErrors("init", io, () => init(args, io)),
};
