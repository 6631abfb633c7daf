import { LoopError } from "@loop/core";
import type { Project } from "../project.js";
import { belongsToProject } from "./belongs-to-project.js";

/** The `loop_metadata.plan_path` of a stored `loop_state` text, or `null` when unreadable. */
export function planPathOfState(text: string | null): string | null {
  if (text === null) return null;
  try {
    const state = JSON.parse(text) as { loop_metadata?: { plan_path?: unknown } };
    const planPath = state.loop_metadata?.plan_path;
    return typeof planPath === "string" ? planPath : null;
  } catch {
    return null;
  }
}

/**
 * Refuses to run a project on a terminal's state that another project left in a shared state
 * root (`--state-dir`, `LOOP_STATE_DIR`, the seed's `~/.claude/state`, a database): the new project would
 * inherit its iterations, breaker and given-up tasks. A state is this project's when its plan
 * is `planPath` or lies in the project folder. The project's own state root is never checked:
 * it moves with the project.
 *
 * @param project - the project.
 * @param planPath - the plan this run uses, absolute.
 * @throws {LoopError} naming the other project's plan and the ways out.
 */
export async function checkStateOwner(project: Project, planPath: string): Promise<void> {
  if (!project.stateGiven) return;
  const stored = planPathOfState(await project.store.get(project.terminalId, "loop_state"));
  if (stored === null || stored === "" || stored === planPath) return;
  if (belongsToProject(stored, project.cwd)) return;
  const ways =
    project.stateRoot === null
      ? "the database keeps the state of every project: choose a terminal of this project with --terminal-id <id>"
      : "run without --state-dir and LOOP_STATE_DIR to keep this project's state in its own .claude/loop/state/, or choose another terminal with --terminal-id <id>";
  throw new LoopError({
    message: `the state of terminal "${project.terminalId}" in ${project.backend.where} belongs to another project (its plan is ${stored}); ${ways}.`,
  });
}
