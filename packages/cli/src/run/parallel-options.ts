import { execFile } from "node:child_process";
import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Executor, type LoopConfig, LoopError, type ParallelOptions } from "@loop/core";
import { gitWorkspaces } from "@loop/git";
import type { Project } from "../project.js";

const run = promisify(execFile);

/** Where a project's task worktrees live, relative to the project folder. */
export const WORKTREES_PATH = ".claude/loop/worktrees";

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
 * Where a project's parallel runs keep their worktrees and what their branches are called.
 * The terminals of a project share one plan by default (`plans.allow_per_terminal_plan: false`,
 * and a second loop in the project is refused): then one folder and `loop/<task>` branches,
 * so a run from another terminal recovers what a killed one left. With a plan per terminal,
 * each terminal has its own folder and `loop/<terminal>/<task>` branches.
 *
 * @param project - the project.
 * @param config - its config.
 * @returns the worktrees folder (absolute) and the branch prefix.
 */
export function worktreePlace(
  project: Project,
  config: LoopConfig,
): { readonly root: string; readonly branchPrefix: string } {
  const shared = !config.plans.allow_per_terminal_plan;
  const terminal = project.terminalId.replace(/\./g, "_");
  return shared
    ? { root: project.resolve(WORKTREES_PATH), branchPrefix: "loop/" }
    : { root: join(project.resolve(WORKTREES_PATH), terminal), branchPrefix: `loop/${terminal}/` };
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
  readonly config: LoopConfig;
  readonly planPath: string;
  readonly mergeExecutor?: Executor | undefined;
}): Promise<ParallelOptions> {
  const { project, config, planPath } = input;
  const repo = await repositoryTop(project.cwd);
  if (repo === null) {
    throw new LoopError({
      message: `loop run --parallel gives each task a git worktree, and ${project.cwd} is in no git repository: run \`git init\` and commit, or run without --parallel.`,
    });
  }
  const place = worktreePlace(project, config);
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
