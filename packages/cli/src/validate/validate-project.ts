import { isAbsolute, resolve } from "node:path";
import { DEFAULT_CONFIG, type LoopConfig, resolveConfig } from "@loop/core";
import { type ConfigCheck, checkConfigText } from "./check-config-text.js";
import { checkPlanText, type PlanCheck } from "./check-plan-text.js";
import { displayPath } from "./display-path.js";
import { readTextFile, type TextFileRead } from "./read-text-file.js";
import { fileProblem, type ValidationProblem } from "./validation-problem.js";

/** Options of {@link validateProject}. */
export interface ValidateProjectOptions {
  /** The project folder, absolute: relative paths and the config's `default_plan` start here. */
  readonly cwd: string;
  /** The plan given on the command line, or `null` for the config's `plans.default_plan`. */
  readonly plan: string | null;
  /** The config file, absolute. */
  readonly configPath: string;
  /** Whether `--config` named it: then it must exist. */
  readonly configRequired: boolean;
}

/** One file `loop validate` checked. */
export interface CheckedFile {
  /** The file, as shown. */
  readonly file: string;
  /** Whether the file exists (a missing optional config means the defaults). */
  readonly exists: boolean;
  /** What it holds (`4 tasks, 1 done`), when it is a valid plan. */
  readonly summary: string | null;
}

/** Everything {@link validateProject} found. */
export interface ValidationReport {
  /** Whether there is no problem (warnings are allowed). */
  readonly valid: boolean;
  /** Every problem, the config's first. */
  readonly problems: readonly ValidationProblem[];
  /** Every warning, the config's first. */
  readonly warnings: readonly ValidationProblem[];
  /** The plan checked. */
  readonly plan: CheckedFile;
  /** The config checked. */
  readonly config: CheckedFile;
}

async function checkConfigFile(
  options: ValidateProjectOptions,
  file: string,
): Promise<ConfigCheck & { exists: boolean }> {
  const read = await readTextFile(options.configPath);
  if (read.kind === "text") return { ...checkConfigText(read.text, file), exists: true };
  if (read.kind === "missing" && !options.configRequired) {
    return { config: resolveConfig(), problems: [], warnings: [], exists: false };
  }
  return {
    config: null,
    problems: [unreadProblem(file, read, "not found")],
    warnings: [],
    exists: false,
  };
}

/** The problem of a file that could not be read as UTF-8 text. */
function unreadProblem(
  file: string,
  read: Exclude<TextFileRead, { kind: "text" }>,
  missing: string,
): ValidationProblem {
  if (read.kind === "missing") return fileProblem(file, missing);
  if (read.kind === "unreadable") return fileProblem(file, `cannot be read: ${read.reason}`);
  return {
    file,
    line: read.line,
    column: read.column,
    message: `not valid UTF-8 (byte 0x${read.byte.toString(16)}); save it as UTF-8 — \`loop run\` refuses it too`,
  };
}

async function checkPlanFile(
  path: string,
  file: string,
  config: LoopConfig | null,
): Promise<PlanCheck & { exists: boolean }> {
  const read = await readTextFile(path);
  if (read.kind === "text") {
    const optionalHeadings = config?.plans.optional_headings;
    return { ...checkPlanText(read.text, file, { optionalHeadings }), exists: true };
  }
  const problem = unreadProblem(file, read, "not found (`loop init` writes an example plan)");
  return { problems: [problem], warnings: [], summary: null, exists: false };
}

/**
 * Checks a project's plan and config, reading both files and never throwing for what is in
 * them: the config first (`--config`, or the default path, where a missing file means the
 * defaults), then the plan (the one given, else the config's `plans.default_plan`, else
 * `plan.md` when the config is invalid), as markdown or, for a `.json` name, as a prd.json.
 *
 * @param options - the folder, the plan, the config and whether it must exist.
 * @returns every problem and warning, and what was checked.
 */
export async function validateProject(options: ValidateProjectOptions): Promise<ValidationReport> {
  const configFile = displayPath(options.cwd, options.configPath);
  const config = await checkConfigFile(options, configFile);
  const planName =
    options.plan ?? config.config?.plans.default_plan ?? DEFAULT_CONFIG.plans.default_plan;
  const planPath = isAbsolute(planName) ? planName : resolve(options.cwd, planName);
  const planFile = displayPath(options.cwd, planPath);
  const plan = await checkPlanFile(planPath, planFile, config.config);
  const problems = [...config.problems, ...plan.problems];
  return {
    valid: problems.length === 0,
    problems,
    warnings: [...config.warnings, ...plan.warnings],
    plan: { file: planFile, exists: plan.exists, summary: plan.summary },
    config: { file: configFile, exists: config.exists, summary: null },
  };
}
