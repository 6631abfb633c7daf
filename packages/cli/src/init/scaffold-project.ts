import { dirname, join, relative, sep } from "node:path";
import { configJsonSchema, DEFAULT_CONFIG } from "@loop/core";
import { configTemplate } from "./config-template.js";
import { planTemplate } from "./plan-template.js";
import { type ScaffoldOutcome, writeScaffoldFile } from "./scaffold-file.js";

/** The JSON Schema's file name, next to the config. */
export const CONFIG_SCHEMA_FILE_NAME = "config.schema.json";

/** Options of {@link scaffoldProject}. */
export interface ScaffoldProjectOptions {
  /** The project folder, absolute. */
  readonly cwd: string;
  /** The plan to write, absolute. */
  readonly planPath: string;
  /** The config to write, absolute; the JSON Schema goes next to it. */
  readonly configPath: string;
  /** Overwrite existing files (`--force`). */
  readonly force: boolean;
}

/** One file of the scaffold and what happened to it. */
export interface ScaffoldedFile {
  /** The file, absolute. */
  readonly path: string;
  /** What the file is, for the report. */
  readonly role: "plan" | "config" | "schema";
  readonly outcome: ScaffoldOutcome;
}

/** `path` relative to `cwd`, with `/` separators (the config's `plans.default_plan` form). */
function projectRelative(cwd: string, path: string): string {
  return relative(cwd, path).split(sep).join("/");
}

/**
 * Writes the files of `loop init`, in this order:
 * 1. the plan, from {@link planTemplate};
 * 2. the config, from {@link configTemplate}: every key commented out at its default, and
 *    `plans.default_plan` set when the plan is not the default `plan.md`;
 * 3. the config's JSON Schema (`config.schema.json` next to the config), which the config's
 *    first line references as `./config.schema.json`: editors validate against the schema of the
 *    installed version, offline.
 *
 * The plan and the config are the user's: an existing one is kept unless `force` is set. The
 * schema is generated: it is replaced whenever it differs from the installed version's.
 *
 * @param options - the folder, the two paths and `force`.
 * @returns each file with what happened to it.
 * @throws the Node.js system error when a file cannot be written.
 */
export async function scaffoldProject(options: ScaffoldProjectOptions): Promise<ScaffoldedFile[]> {
  const mode = options.force ? "overwrite" : "keep";
  const plan = projectRelative(options.cwd, options.planPath);
  const settings = plan === DEFAULT_CONFIG.plans.default_plan ? {} : { "plans.default_plan": plan };
  const schemaPath = join(dirname(options.configPath), CONFIG_SCHEMA_FILE_NAME);
  const files: ScaffoldedFile[] = [];
  const planText = planTemplate();
  files.push({
    path: options.planPath,
    role: "plan",
    outcome: await writeScaffoldFile(options.planPath, planText, mode),
  });
  const configText = configTemplate({
    schemaReference: `./${CONFIG_SCHEMA_FILE_NAME}`,
    settings,
  });
  files.push({
    path: options.configPath,
    role: "config",
    outcome: await writeScaffoldFile(options.configPath, configText, mode),
  });
  const schemaText = `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
  files.push({
    path: schemaPath,
    role: "schema",
    outcome: await writeScaffoldFile(schemaPath, schemaText, "refresh"),
  });
  return files;
}
