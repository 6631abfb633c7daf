import { readFile } from "node:fs/promises";
import { type LoopConfig, LoopError, parsePlan, parsePrd, storyTasks } from "@loop/core";
import { describeFileError } from "../file-error.js";

/** A task of the plan, as `loop branches` shows it. */
export interface PlanTask {
  /** The task id. */
  readonly id: string;
  /** Its title. */
  readonly title: string;
  /** Whether its box is checked (a prd story: it passes). */
  readonly done: boolean;
}

/**
 * The tasks of a plan file: a markdown plan, or a prd.json (a name ending in `.json`).
 *
 * @param planPath - the plan, absolute.
 * @param shown - the plan's name in messages (relative to the project when inside it).
 * @param config - the config (its optional headings).
 * @throws {LoopError} when the plan cannot be read; the parsers' errors when it is malformed.
 */
export async function readPlanTasks(
  planPath: string,
  shown: string,
  config: LoopConfig,
): Promise<readonly PlanTask[]> {
  let text: string;
  try {
    text = await readFile(planPath, "utf8");
  } catch (error) {
    throw new LoopError({
      message: `the plan ${shown} cannot be read: ${describeFileError(error)}; name the plan the kept work belongs to with --plan <file>.`,
      cause: error,
    });
  }
  const tasks = planPath.toLowerCase().endsWith(".json")
    ? storyTasks(parsePrd(text, { file: shown }))
    : parsePlan(text, { file: shown, optionalHeadings: config.plans.optional_headings }).tasks;
  return tasks.map(({ id, title, done }) => ({ id, title, done }));
}
