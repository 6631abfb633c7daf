import { realpath } from "node:fs/promises";
import { LoopError, type Workspaces } from "@loop/core";
import { gitWorkspaces } from "@loop/git";
import type { Project } from "../project.js";
import { repositoryTop, worktreePlace } from "../run/parallel-options.js";

/**
 * The workspaces `loop run --parallel` uses in this project (the same worktrees folder and
 * branch prefix, {@link worktreePlace}), for `loop branches` to read and change its kept work.
 *
 * @param project - the project.
 * @param planPath - the plan, absolute.
 * @throws {LoopError} when the project is in no git repository, or the plan is outside it.
 */
export async function projectWorkspaces(project: Project, planPath: string): Promise<Workspaces> {
  const repo = await repositoryTop(project.cwd);
  if (repo === null) {
    throw new LoopError({
      message: `${project.cwd} is in no git repository, so it has no kept work: \`loop run --parallel\` keeps work on git branches, in a git repository only.`,
    });
  }
  try {
    return gitWorkspaces({
      repo,
      planPath: await realpath(planPath).catch(() => planPath),
      ...worktreePlace(project),
    });
  } catch (error) {
    throw new LoopError({
      message: error instanceof Error ? error.message : String(error),
      cause: error,
    });
  }
}
