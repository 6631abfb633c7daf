import { isAbsolute } from "node:path";
import { isInsideFolder } from "../is-inside-folder.js";

/**
 * Whether a state whose plan is `planPath` (its `loop_metadata.plan_path`) is this project's:
 * the plan lies in the project folder `cwd` (or below). A plan without a path (`""`) belongs
 * to no project in particular, so to none.
 *
 * @param planPath - the absolute plan path the state records.
 * @param cwd - the project folder, absolute.
 */
export function belongsToProject(planPath: string, cwd: string): boolean {
  return isAbsolute(planPath) && planPath !== cwd && isInsideFolder(planPath, cwd);
}
