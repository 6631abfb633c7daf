import { realpath } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { type LoopConfig, LoopError } from "@loop/core";
import { isInsideFolder } from "../is-inside-folder.js";
import type { Project } from "../project.js";
import { displayPath } from "../validate/display-path.js";

/**
 * Where a write to `path` would really land: its symbolic links resolved as far as it exists (a
 * link inside the project pointing at the home folder does not stay inside).
 */
async function landingPath(path: string): Promise<string> {
  const missing: string[] = [];
  let existing = path;
  for (;;) {
    try {
      return resolve(await realpath(existing), ...missing);
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      missing.unshift(basename(existing));
      existing = parent;
    }
  }
}

/**
 * Refuses a project's config that makes `loop run` write outside the project: its log paths
 * (`logging.decision_log`, `logging.verifier_log`, `logging.iteration_logs`) and, unless the
 * plan is named on the command line, `plans.default_plan` must lie inside the project folder
 * (or the state root), after `..` and symbolic links. A repository someone cloned decides its
 * config; without this it could make the loop append the agent's text to `~/.bashrc`.
 *
 * @param project - the project.
 * @param config - its config.
 * @param planGiven - whether the plan came from the command line (the user's own choice).
 * @throws {LoopError} naming the config file, the key and where the path lands.
 */
export async function checkProjectPaths(
  project: Project,
  config: LoopConfig,
  planGiven: boolean,
): Promise<void> {
  const logging = config.logging as Readonly<Record<string, unknown>>;
  const keys: [string, unknown][] = [
    ["logging.decision_log", logging.decision_log],
    ["logging.verifier_log", logging.verifier_log],
    ["logging.iteration_logs", logging.iteration_logs],
    ...(planGiven ? [] : [["plans.default_plan", config.plans.default_plan] as [string, unknown]]),
  ];
  const folders = await Promise.all(
    [project.cwd, ...(project.stateRoot === null ? [] : [project.stateRoot])].map((folder) =>
      realpath(folder).catch(() => folder),
    ),
  );
  for (const [key, value] of keys) {
    if (typeof value !== "string" || value === "") continue;
    const lands = await landingPath(project.resolve(value));
    if (folders.some((folder) => isInsideFolder(lands, folder))) continue;
    throw new LoopError({
      message: `${displayPath(project.cwd, project.configPath)}: ${key}: ${JSON.stringify(value)} is outside the project folder ${project.cwd} (it lands at ${lands}); a project's config may only name files inside the project, so a cloned repository cannot make the loop write elsewhere. Use a path inside it${key === "plans.default_plan" ? ", or name the plan on the command line: `loop run <plan>`" : ""}.`,
    });
  }
}
