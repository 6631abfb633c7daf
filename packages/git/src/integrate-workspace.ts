import type { IntegrateOptions, Integration, TaskWorkspace } from "@loop/core";
import { dirtyPaths, pathsOverlap } from "./dirty-paths.js";
import { fastForwardMain } from "./fast-forward-main.js";
import { isAncestor, resolveCommit } from "./git-refs.js";
import { mergeTree } from "./merge-tree.js";
import { resolveInWorktree } from "./resolve-in-worktree.js";
import { runGit, splitNul } from "./run-git.js";
import { type TaskNames, taskNames, type WorkspaceContext } from "./workspace-context.js";
import { readRecord, type WorkspaceRecord } from "./workspace-record.js";
import { WorkspaceStateError } from "./workspace-state-error.js";

/** How often the merge is recomputed when the main line moves under it. */
const maxAttempts = 5;

/** The merge commit of a clean merge: `null` when it would change nothing. */
async function cleanMergeCommit(
  context: WorkspaceContext,
  head: string,
  source: string,
  tree: string,
  message: string,
): Promise<string | null> {
  const top = context.repository.top;
  const headTree = (await runGit(top, ["rev-parse", `${head}^{tree}`])).stdout.trim();
  if (headTree === tree) return null;
  const commit = await runGit(
    top,
    ["commit-tree", "--no-gpg-sign", tree, "-p", head, "-p", source, "-m", message],
    { env: await context.identity() },
  );
  return commit.stdout.trim();
}

/** Why the main working tree cannot take the merge, or `null` when it can. */
async function mainRefusal(
  context: WorkspaceContext,
  head: string,
  target: string,
): Promise<{ readonly message: string; readonly written: number } | { readonly written: number }> {
  const top = context.repository.top;
  const written = splitNul(
    (await runGit(top, ["diff", "--name-only", "-z", "--no-renames", head, target])).stdout,
  );
  const dirty = await dirtyPaths(top);
  const blocked = written.filter((path) => dirty.some((other) => pathsOverlap(path, other)));
  if (blocked.length === 0) return { written: written.length };
  const shown = blocked.slice(0, 5).join(", ");
  return {
    written: written.length,
    message: `the main working tree has uncommitted changes in ${blocked.length} file${blocked.length === 1 ? "" : "s"} the merge writes (${shown}${blocked.length > 5 ? ", …" : ""}); commit or stash them, then integrate again`,
  };
}

/** Integrates one task's branch (inside the integration queue and the task's queue). */
async function integrateNames(
  context: WorkspaceContext,
  names: TaskNames,
  record: WorkspaceRecord,
  options: IntegrateOptions,
): Promise<Integration> {
  const top = context.repository.top;
  let source = await resolveCommit(top, `refs/heads/${names.branch}`);
  if (source === null) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces.integrate: the task branch ${names.branch} is gone`,
      where: names.branch,
    });
  }
  let resolved = false;
  const keptBranch = names.branch;
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    const head = await resolveCommit(top, "HEAD");
    if (head === null)
      throw new WorkspaceStateError({ message: `gitWorkspaces: ${top} has no HEAD`, where: top });
    if (await isAncestor(top, source, head)) {
      return { kind: "integrated", commit: null, filesChanged: 0, resolved };
    }
    const merged = await mergeTree(top, head, source);
    let target: string | null;
    if (merged.clean) {
      target = await cleanMergeCommit(context, head, source, merged.tree, options.message);
      if (target === null) return { kind: "integrated", commit: null, filesChanged: 0, resolved };
    } else {
      if (options.resolve === undefined || resolved) {
        return { kind: "conflict", files: merged.files, keptBranch };
      }
      const outcome = await resolveInWorktree({
        context,
        names,
        record,
        head,
        source,
        files: merged.files,
        options,
      });
      if (outcome.kind === "conflict")
        return { kind: "conflict", files: outcome.files, keptBranch };
      if (outcome.kind === "refused")
        return { kind: "refused", message: outcome.message, keptBranch };
      resolved = true;
      target = outcome.commit;
      source = outcome.commit;
    }
    const refusal = await mainRefusal(context, head, target);
    if ("message" in refusal) return { kind: "refused", message: refusal.message, keptBranch };
    const moved = await fastForwardMain(context, names, record.taskId, head, target);
    if (moved.kind === "done") {
      return { kind: "integrated", commit: target, filesChanged: refusal.written, resolved };
    }
    if (moved.kind === "refused") return { kind: "refused", message: moved.message, keptBranch };
  }
  return {
    kind: "refused",
    message: `the main line moved ${maxAttempts} times while the merge was computed; integrate again`,
    keptBranch,
  };
}

/** `integrate`: one at a time, never touching a working tree before the merge is known. */
export function integrateWorkspace(
  context: WorkspaceContext,
  workspace: TaskWorkspace,
  options: IntegrateOptions,
): Promise<Integration> {
  if (typeof options?.message !== "string") {
    return Promise.reject(
      new TypeError("gitWorkspaces.integrate: option `message` must be a string"),
    );
  }
  const names = taskNames(context, workspace.taskId);
  return context.integrations.run("main", () =>
    context.tasks.run(names.branch, async () => {
      const record = await readRecord(context.repository.stateDirectory, names.branch);
      if (record === null) {
        throw new WorkspaceStateError({
          message: `gitWorkspaces.integrate: no record of the task branch ${names.branch}; was it opened by these workspaces?`,
          where: names.branch,
        });
      }
      return integrateNames(context, names, record, options);
    }),
  );
}
