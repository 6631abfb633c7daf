import type { CloseOptions, TaskWorkspace } from "@loop/core";
import { finishClose } from "./finish-close.js";
import { hasLiveWorktree } from "./open-workspace.js";
import { saveNames } from "./save-workspace.js";
import { taskNames, type WorkspaceContext } from "./workspace-context.js";
import { readRecord, writeRecord } from "./workspace-record.js";
import { WorkspaceStateError } from "./workspace-state-error.js";

/** The message of the commit `close({ keep: true })` makes of work left unsaved. */
export const closeSaveMessage = "loop: work left when the workspace was closed";

/**
 * `close`: removes the worktree (forced: its work was saved), then keeps the branch under
 * `<prefix>kept/<safe id>/<n>` or deletes it with its backup ref. With `keep`, work left
 * unsaved is saved first. The intent is recorded before anything is removed, so a recovery
 * after a kill finishes the same close.
 */
export function closeWorkspace(
  context: WorkspaceContext,
  workspace: TaskWorkspace,
  options: CloseOptions,
): Promise<{ readonly keptBranch: string | null }> {
  if (typeof options?.keep !== "boolean") {
    return Promise.reject(new TypeError("gitWorkspaces.close: option `keep` must be a boolean"));
  }
  const names = taskNames(context, workspace.taskId);
  const { stateDirectory } = context.repository;
  return context.tasks.run(names.branch, async () => {
    const record = await readRecord(stateDirectory, names.branch);
    if (record === null) {
      throw new WorkspaceStateError({
        message: `gitWorkspaces.close: no record of the task branch ${names.branch}; was it opened by these workspaces?`,
        where: names.branch,
      });
    }
    if (options.keep && (await hasLiveWorktree(context, names))) {
      await context.tasks.run(`plan:${names.branch}`, () =>
        saveNames(context, names, closeSaveMessage),
      );
    }
    const intent = options.keep ? "keep" : "delete";
    await writeRecord(stateDirectory, { ...record, closing: intent });
    context.lastSaved.delete(names.branch);
    const keptBranch = await finishClose(context, names, record, intent);
    return { keptBranch };
  });
}
