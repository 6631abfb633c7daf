import { join } from "node:path";
import type { LoopConfig } from "@loop/core";
import type { LoopSnapshot } from "../loop-snapshot.js";
import { type Project, STATUS_FILE_PATH } from "../project.js";

/**
 * The files whose changes the dashboard shows: the terminal's `loop_state.json` (in the file
 * store's documented layout, `<root>/terminals/<terminal id>/`), `status.json`, the decision
 * log and the plan (its boxes are the progress bar).
 *
 * @param project - the project.
 * @param config - its config (the decision log's and the default plan's paths).
 * @param snapshot - the last read, for the terminal shown and the plan it runs.
 */
export function watchedFiles(
  project: Project,
  config: LoopConfig,
  snapshot: LoopSnapshot,
): string[] {
  const plan =
    snapshot.progress?.path ??
    project.resolve(
      snapshot.state?.loop_metadata.plan_path ||
        snapshot.status?.plan_path ||
        config.plans.default_plan,
    );
  return [
    // A database has no file to watch: the monitor polls it (`ProjectBackend.refreshMs`).
    ...(project.stateRoot === null
      ? []
      : [join(project.stateRoot, "terminals", snapshot.terminalId, "loop_state.json")]),
    project.resolve(STATUS_FILE_PATH),
    project.resolve(config.logging.decision_log),
    plan,
  ];
}
