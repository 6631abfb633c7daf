import { execFile } from "node:child_process";
import { realpath } from "node:fs/promises";
import { promisify } from "node:util";
import { type Executor, LoopError, type ParallelOptions } from "@loop/core";
import { gitWorkspaces } from "@loop/git";
import type { Project } from "../project.js";

const run = promisify(execFile);

/** Where a project's task worktrees live, relative to the project folder. */
export const WORKTREES_PATH = ".loop/worktrees";

/** The git repository's top folder that holds `folder`; `null` when it is in none. */
export async function repositoryTop(folder: string): Promise<string | null> {
  try {
    const { stdout } = await run("git", ["rev-parse", "--show-toplevel"], { cwd: folder });
    return stdout.trim() === "" ? null : stdout.trim();
  } catch {
    return null;
  }
}

/**
 * Where a project's parallel runs keep their worktrees and what their branches are called: one
 * folder and `loop/<task>` branches for the whole project, whichever terminal runs it (a
 * parallel run holds the project's lock, so it is the only loop of the project), and a run from
 * another terminal recovers what a killed one left.
 *
 * @param project - the project.
 * @returns the worktrees folder (absolute) and the branch prefix.
 */
export function worktreePlace(project: Project): {
  readonly root: string;
  readonly branchPrefix: string;
} {
  return { root: project.resolve(WORKTREES_PATH), branchPrefix: "loop/" };
}

/**
 * The `parallel` option of `loop run --parallel N`: git worktrees per task in the project's
 * repository, and the merge agent with `--merge-agent`.
 *
 * @throws {LoopError} when the project is not in a git repository, or the plan is outside it.
 */
export async function parallelOptions(input: {
  readonly workers: number;
  readonly project: Project;
  readonly planPath: string;
  readonly mergeExecutor?: Executor | undefined;
}): Promise<ParallelOptions> {
  const { project, planPath } = input;
  const repo = await repositoryTop(project.cwd);
  if (repo === null) {
    throw new LoopError({
      message: `loop run --parallel gives each task a git worktree, and ${project.cwd} is in no git repository: run \`git init\` and commit, or run without --parallel.`,
    });
  }
  const place = worktreePlace(project);
  try {
    return {
      workers: input.workers,
      // The repository's top folder as git gives it has its links resolved: so must the plan.
      workspaces: gitWorkspaces({
        repo,
        planPath: await realpath(planPath).catch(() => planPath),
        ...place,
      }),
      mergeExecutor: input.mergeExecutor,
    };
  } catch (error) {
    throw new LoopError({
      message: `loop run --parallel: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}
