import type { Workspaces } from "@loop/core";
import { closeWorkspace } from "./close-workspace.js";
import { checkOptions, type GitWorkspacesOptions } from "./git-workspaces-options.js";
import { integrateWorkspace } from "./integrate-workspace.js";
import { discardKept, listKept } from "./kept-work.js";
import { openWorkspace } from "./open-workspace.js";
import { recoverWorkspaces } from "./recover-workspaces.js";
import { openRepository } from "./repository.js";
import { saveWorkspace } from "./save-workspace.js";
import { createKeyedQueue } from "./serial-queue.js";
import { createContext, type WorkspaceContext } from "./workspace-context.js";

/**
 * `Workspaces` on git worktrees: each task of a parallel run gets a worktree at
 * `<root>/<safe id>` on a branch `<prefix><safe id>` from the main working tree's `HEAD`, and
 * its work comes back by a merge computed without touching any working tree
 * (`git merge-tree --write-tree`, then `git commit-tree`), applied to the main working tree by
 * `git merge --ff-only`, one integration at a time, with a backup ref and a journal written
 * before the main working tree is touched. The plan file never changes on a task branch. A
 * process killed at any instant is put right by `recover`. Needs git 2.38 or later.
 *
 * `git` always runs through `execFile`, never a shell: task ids and titles are plain data.
 * See docs/parallel-runs.md, "Git workspaces", for the names, records and recovery.
 *
 * @param options - the repository, the worktrees folder and the plan file.
 * @returns the workspaces; the repository is checked on first use (git's version, a commit to
 *   start from, the plan inside the working tree), each method rejecting with a typed error.
 * @throws {TypeError} for a missing or malformed option.
 * @throws {PlanOutsideRepositoryError} when `planPath` is not inside `repo`.
 *
 * @example
 * ```ts
 * const workspaces = gitWorkspaces({
 *   repo: process.cwd(),
 *   root: join(process.cwd(), ".loop/worktrees"),
 *   planPath: join(process.cwd(), "plan.md"),
 * });
 * await workspaces.recover({ resume: [] });
 * const workspace = await workspaces.open({ id: "TASK-1", title: "Add a README" }, { planText });
 * // ... the agent works in workspace.path ...
 * await workspaces.save(workspace, { message: "TASK-1: iteration 1" });
 * const integration = await workspaces.integrate(workspace, { message: "Merge TASK-1" });
 * if (integration.kind === "integrated") await workspaces.close(workspace, { keep: false });
 * ```
 */
export function gitWorkspaces(options: GitWorkspacesOptions): Workspaces {
  const checked = checkOptions(options);
  const queues = { tasks: createKeyedQueue(), integrations: createKeyedQueue() };
  let context: Promise<WorkspaceContext> | null = null;
  const ready = (): Promise<WorkspaceContext> => {
    context ??= openRepository(checked).then((repository) =>
      createContext(checked, repository, queues),
    );
    // A failed start (git too old, no repository) is tried again on the next call.
    context.catch(() => {
      context = null;
    });
    return context;
  };
  return {
    name: "git",
    recover: async (recoverOptions) => recoverWorkspaces(await ready(), recoverOptions),
    open: async (task, openOptions) => openWorkspace(await ready(), task, openOptions),
    save: async (workspace, saveOptions) => saveWorkspace(await ready(), workspace, saveOptions),
    integrate: async (workspace, integrateOptions) =>
      integrateWorkspace(await ready(), workspace, integrateOptions),
    close: async (workspace, closeOptions) =>
      closeWorkspace(await ready(), workspace, closeOptions),
    kept: async () => listKept(await ready()),
    discard: async (branch) => discardKept(await ready(), branch),
  };
}
