import type { IntegrateOptions, Integration, TaskWorkspace } from "@loop/core";
import { dirtyPaths, pathsOverlap } from "./dirty-paths.js";
import { fastForwardMain } from "./fast-forward-main.js";
import { resolveObjects } from "./git-refs.js";
import { mergeTree } from "./merge-tree.js";
import { resolveInWorktree } from "./resolve-in-worktree.js";
import { runGit, splitNul } from "./run-git.js";
import { type TaskNames, taskNames, type WorkspaceContext } from "./workspace-context.js";
import { readRecord, type WorkspaceRecord } from "./workspace-record.js";
import { WorkspaceStateError } from "./workspace-state-error.js";

/** How often the merge is recomputed when the main line moves under it. */
const maxAttempts = 5;

/** Makes the merge commit of `tree` (parents `head`, `source`). */
async function mergeCommit(
  context: WorkspaceContext,
  head: string,
  source: string,
  tree: string,
  message: string,
): Promise<string> {
  const commit = await runGit(
    context.repository.top,
    ["commit-tree", "--no-gpg-sign", tree, "-p", head, "-p", source, "-m", message],
    { env: await context.identity() },
  );
  return commit.stdout.trim();
}

/** What the merge writes in the main working tree, and why it cannot (`message`), if so. */
interface MainCheck {
  /** The paths the merge changes (`git diff head <merged tree>`). */
  readonly written: readonly string[];
  /** Why the main working tree cannot take the merge; absent when it can. */
  readonly message?: string | undefined;
}

/**
 * What the merge to `merged` (a tree or commit) writes in the main working tree at `head`, and
 * whether a file it writes has uncommitted changes there (the diff and `git status` at once).
 */
async function checkMain(
  context: WorkspaceContext,
  head: string,
  merged: string,
): Promise<MainCheck> {
  const top = context.repository.top;
  const [diff, dirty] = await Promise.all([
    runGit(top, ["diff", "--name-only", "-z", "--no-renames", head, merged]),
    dirtyPaths(top),
  ]);
  const written = splitNul(diff.stdout);
  const blocked = written.filter((path) => dirty.some((other) => pathsOverlap(path, other)));
  if (blocked.length === 0) return { written };
  const shown = blocked.slice(0, 5).join(", ");
  return {
    written,
    message: `the main working tree has uncommitted changes in ${blocked.length} file${blocked.length === 1 ? "" : "s"} the merge writes (${shown}${blocked.length > 5 ? ", …" : ""}); commit or stash them, then integrate again`,
  };
}

/**
 * The task branch's tip (`source`, when not known yet) and the main line's `HEAD`, read by one
 * git.
 */
async function readTips(
  context: WorkspaceContext,
  names: TaskNames,
  source: string | null,
): Promise<{ readonly source: string; readonly head: string }> {
  const top = context.repository.top;
  const [head, tip] = await resolveObjects(
    top,
    source === null ? ["HEAD^{commit}", `refs/heads/${names.branch}^{commit}`] : ["HEAD^{commit}"],
  );
  const found = source ?? tip ?? null;
  if (found === null) {
    throw new WorkspaceStateError({
      message: `gitWorkspaces.integrate: the task branch ${names.branch} is gone`,
      where: names.branch,
    });
  }
  if (head === null || head === undefined)
    throw new WorkspaceStateError({ message: `gitWorkspaces: ${top} has no HEAD`, where: top });
  return { source: found, head };
}

/** Integrates one task's branch (inside the integration queue and the task's queue). */
async function integrateNames(
  context: WorkspaceContext,
  names: TaskNames,
  record: WorkspaceRecord,
  options: IntegrateOptions,
): Promise<Integration> {
  const top = context.repository.top;
  let source: string | null = null;
  let resolved = false;
  const keptBranch = names.branch;
  const nothing = (): Integration => ({
    kind: "integrated",
    commit: null,
    filesChanged: 0,
    resolved,
  });
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    const tips = await readTips(context, names, source);
    source = tips.source;
    const head = tips.head;
    if (source === head) return nothing();
    // Work already on the main line merges to HEAD's own tree: nothing to write (no
    // `merge-base --is-ancestor` first: the merge says it as well).
    const merged = await mergeTree(top, head, source);
    let target: string;
    let check: MainCheck;
    if (merged.clean) {
      // The commit, the paths it writes and the main working tree's state, all at once: the
      // commit is only an object until a ref names it.
      const [commit, main] = await Promise.all([
        mergeCommit(context, head, source, merged.tree, options.message),
        checkMain(context, head, merged.tree),
      ]);
      if (main.written.length === 0) return nothing();
      target = commit;
      check = main;
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
      check = await checkMain(context, head, target);
    }
    if (check.message !== undefined) return { kind: "refused", message: check.message, keptBranch };
    const moved = await fastForwardMain(context, names, record.taskId, head, target);
    if (moved.kind === "done") {
      return { kind: "integrated", commit: target, filesChanged: check.written.length, resolved };
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
