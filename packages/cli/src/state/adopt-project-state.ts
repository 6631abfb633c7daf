import type { CliIo } from "../cli-io.js";
import type { Project } from "../project.js";
import { moveHomeState } from "./move-home-state.js";

/**
 * Readies a project's state for a command that reads or writes it: moves this project's state
 * from the seed's shared `~/.claude/state/` into the project's own root (see
 * {@link moveHomeState}), saying so on stderr.
 *
 * @param command - the command's name, for the line on stderr (`run`).
 * @param project - the project, as `openProject` made it.
 * @param io - the CLI's environment.
 */
export async function adoptProjectState(
  command: string,
  project: Project,
  io: CliIo,
): Promise<void> {
  const move = await moveHomeState(project, io);
  if (move !== null) io.stderr.write(`loop ${command}: ${move.message}\n`);
}
