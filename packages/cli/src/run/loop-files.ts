import type { LoopConfig } from "@loop/core";
import { type Project, STATUS_FILE_PATH } from "../project.js";

/** The folder of the loop's logs in a project: the decision, verifier and iteration logs. */
export const LOGS_FOLDER_PATH = ".claude/loop/logs";

/**
 * What `loop run` itself writes in a project — its state root, its logs and `status.json` —
 * absolute: never the agent's progress, and what `loop init`'s `.gitignore` lines keep out
 * of git.
 *
 * @param project - the project.
 * @param config - its config (the log paths).
 */
export function loopFiles(project: Project, config: LoopConfig): string[] {
  return [
    ...(project.stateRoot === null ? [] : [project.stateRoot]),
    project.resolve(LOGS_FOLDER_PATH),
    project.resolve(config.logging.decision_log),
    project.resolve(config.logging.verifier_log),
    project.resolve(config.logging.iteration_logs),
    project.resolve(STATUS_FILE_PATH),
  ];
}
