import { join } from "node:path";
import type { TaskWorkspace } from "@loop/core";
import { planCopySource } from "./plan-copy.js";
import type { TaskNames, WorkspaceContext } from "./workspace-context.js";

/** The plan copy's path in a task's worktree. */
export function planCopyPath(context: WorkspaceContext, names: TaskNames): string {
  return join(names.path, ...context.repository.planRelative.split("/"));
}

/** The `TaskWorkspace` object of a task's worktree. */
export function taskWorkspace(
  context: WorkspaceContext,
  taskId: string,
  names: TaskNames,
): TaskWorkspace {
  const plan = planCopySource(planCopyPath(context, names), (write) =>
    context.tasks.run(`plan:${names.branch}`, write),
  );
  return { taskId, path: names.path, branch: names.branch, plan };
}
