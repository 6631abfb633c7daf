import { stat } from "node:fs/promises";
import { LoopError } from "@loop/core";
import { displayPath } from "../validate/display-path.js";

/**
 * Checks, before `loop run` writes anything (state, logs, status.json), that the plan is a file:
 * a run without one leaves no trace and says how to get one.
 *
 * @param path - the plan, absolute.
 * @param cwd - the folder paths are shown relative to.
 * @throws {LoopError} "plan.md not found: …" or "… is a folder, not a plan file".
 */
export async function checkPlanFile(path: string, cwd: string): Promise<void> {
  const shown = displayPath(cwd, path);
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch {
    throw new LoopError({
      message: `${shown} not found: write a plan (\`loop init\` scaffolds one), or name yours: \`loop run <plan>\`.`,
    });
  }
  if (!isFile) {
    throw new LoopError({
      message: `${shown} is a folder, not a plan file: name the plan itself, \`loop run <plan>\`.`,
    });
  }
}
