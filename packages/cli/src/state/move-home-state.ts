import { cp, rm, stat } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { createFileStateStore } from "@loop/fs";
import type { CliIo } from "../cli-io.js";
import { homeFolder } from "../home-folder.js";
import type { Project } from "../project.js";
import { belongsToProject } from "./belongs-to-project.js";
import { planPathOfState } from "./check-state-owner.js";

/** What {@link moveHomeState} did: a line for the user, or nothing when there was nothing to do. */
export type HomeStateMove =
  | { readonly kind: "moved"; readonly message: string }
  | { readonly kind: "kept"; readonly message: string }
  | null;

/** The seed's state root, `~/.claude/state`, with `HOME` from the CLI's environment. */
function homeStateRoot(io: CliIo): string {
  return join(homeFolder(io), ".claude", "state");
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Moves this project's state from where earlier versions kept it — the seed's
 * `~/.claude/state/terminals/<terminal id>/`, shared by every project run in that terminal —
 * into the project's own state root, so an upgrade resumes where the loop was.
 *
 * It moves only when the project uses its default state root (no `--state-dir`,
 * `LOOP_STATE_DIR`), the project has no state of its own for the terminal yet, and the old
 * state's plan lies in this project folder: another project's state stays where it is. A
 * folder a live loop holds is left alone (with a message saying so). The files are copied,
 * then the old folder removed, so a failure half-way leaves the old state whole.
 *
 * @param project - the project, as `openProject` made it.
 * @param io - the CLI's environment (`HOME`).
 * @returns what was done, for a line on stderr; `null` when nothing applied.
 */
export async function moveHomeState(project: Project, io: CliIo): Promise<HomeStateMove> {
  if (project.stateGiven || project.stateRoot === null) return null;
  const home = createFileStateStore({ root: homeStateRoot(io) });
  const from = join(home.root, "terminals", project.terminalId);
  const to = join(project.stateRoot, "terminals", project.terminalId);
  if (from === to || (await exists(join(to, "loop_state.json")))) return null;
  const planPath = planPathOfState(
    await home.get(project.terminalId, "loop_state").catch(() => null),
  );
  if (planPath === null || !belongsToProject(planPath, project.cwd)) return null;
  const shown = relative(project.cwd, to) || ".";
  const lock = await home.lockHolder(project.terminalId);
  if (lock !== null && lock.alive !== false) {
    const who = lock.holder === null ? "a loop" : `a loop (pid ${lock.holder.pid})`;
    return {
      kind: "kept",
      message: `this project's state is still in ${from}/, which ${who} holds; it moves to ${shown}/ once that loop ends`,
    };
  }
  await cp(from, to, {
    recursive: true,
    force: false,
    errorOnExist: false,
    filter: (source) => basename(source) !== ".lock",
  });
  await rm(from, { recursive: true, force: true });
  return {
    kind: "moved",
    message: `moved this project's state from ${from}/ to ${shown}/ (state is now kept per project)`,
  };
}
