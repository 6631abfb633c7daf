import { DEFAULT_CONFIG } from "@loop/core";
import { type OptionSpec, parseCommandArgs } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { withCommandErrors } from "../command-errors.js";
import type { CommandModule } from "../command-module.js";
import { CLI_EXIT_CODES } from "../exit-codes.js";
import { DEFAULT_CONFIG_PATH, openProject, PROJECT_OPTIONS } from "../project.js";
import { createStyle } from "../style.js";
import { formatProblem } from "../validate/format-problem.js";
import { formatSummary } from "../validate/format-summary.js";
import { type ValidationReport, validateProject } from "../validate/validate-project.js";

const OPTIONS = {
  config: PROJECT_OPTIONS.config,
  json: { type: "boolean" },
} as const satisfies OptionSpec;

const HELP = `Usage: loop validate [plan] [--config <file>] [--json]

Checks the plan and the config and prints every problem, not just the first, as
file:line:column: message — duplicate task ids, malformed RALPH_STATUS values, unknown config
keys (with the nearest valid key), values of the wrong type, YAML and JSON syntax errors.
Settings that are valid but contradict each other are printed as warnings.

Arguments:
  plan              The plan to check (default: the config's plans.default_plan,
                    ${DEFAULT_CONFIG.plans.default_plan}); a name ending in .json is a prd.json
                    (docs/prd-format.md), anything else a markdown plan (docs/plan-format.md)

Options:
  --config <file>   Config file (default ${DEFAULT_CONFIG_PATH}; missing is fine, then the
                    defaults apply; a --config file must exist)
  --json            Print { valid, problems, warnings, plan, config } as JSON; each problem
                    is { file, line, column, message, keyPath? } (line and column null when the
                    problem is the whole file), each warning also has its code
  -h, --help        Show this help

Exit codes: 0 valid (warnings allowed), 1 a problem was found, 2 wrong arguments.

Examples:
  loop validate                       # plan.md (or plans.default_plan) and the config
  loop validate .claude/plugin/ralph/prd.json
  loop validate --config ci.yaml --json
`;

function printText(io: CliIo, report: ValidationReport): void {
  const style = createStyle(io.stdout, io.env);
  for (const problem of report.problems) io.stdout.write(`${formatProblem(problem)}\n`);
  for (const warning of report.warnings) {
    io.stdout.write(`${style.yellow(formatProblem(warning, "warning"))}\n`);
  }
  const summary = formatSummary(report);
  io.stdout.write(`${report.valid ? style.green(summary) : style.red(summary)}\n`);
}

async function validate(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs("validate", args, OPTIONS, 1);
  const project = openProject(io, values);
  const report = await validateProject({
    cwd: project.cwd,
    plan: positionals[0] ?? null,
    configPath: project.configPath,
    configRequired: project.configGiven,
  });
  if (values.json === true) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printText(io, report);
  return report.valid ? CLI_EXIT_CODES.complete : CLI_EXIT_CODES.error;
}

/** `loop validate`: check the plan and config, printing every problem as file:line:column. */
export const validateCommand: CommandModule = {
  help: HELP,
  run: (args, io) => withCommandErrors("validate", io, () => validate(args, io)),
};
