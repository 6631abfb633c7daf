import { join } from "node:path";
import { commitIdentity } from "./commit-identity.js";
import type { CheckedOptions } from "./git-workspaces-options.js";
import type { Repository } from "./repository.js";
import { type GitResult, type RunGitOptions, runGit } from "./run-git.js";
import { safeTaskId } from "./safe-task-id.js";
import type { KeyedQueue } from "./serial-queue.js";

/** What every operation of one `gitWorkspaces` shares. */
export interface WorkspaceContext {
  /** The checked options. */
  readonly options: CheckedOptions;
  /** The repository, found on first use. */
  readonly repository: Repository;
  /** One queue per task branch: a workspace's operations never overlap. */
  readonly tasks: KeyedQueue;
  /** Integrations, one at a time. */
  readonly integrations: KeyedQueue;
  /** Each task branch's commit at its previous save (or at open): what a save counts from. */
  readonly lastSaved: Map<string, string>;
  /** The environment of commits (a fallback identity when none is configured). */
  identity(): Promise<Record<string, string>>;
}

/** Builds the context of a repository. */
export function createContext(
  options: CheckedOptions,
  repository: Repository,
  queues: { readonly tasks: KeyedQueue; readonly integrations: KeyedQueue },
): WorkspaceContext {
  let identity: Promise<Record<string, string>> | null = null;
  return {
    options,
    repository,
    tasks: queues.tasks,
    integrations: queues.integrations,
    lastSaved: new Map(),
    identity() {
      identity ??= commitIdentity(repository.top);
      return identity;
    },
  };
}

/** Runs git in the main working tree. */
export function gitMain(
  context: WorkspaceContext,
  args: readonly string[],
  options?: RunGitOptions,
): Promise<GitResult> {
  return runGit(context.repository.top, args, options);
}

/** The names a task gets: its safe id, branch, worktree path and backup ref. */
export interface TaskNames {
  /** The task id's safe form. */
  readonly safeId: string;
  /** `<prefix><safe id>`. */
  readonly branch: string;
  /** `<root>/<safe id>`. */
  readonly path: string;
  /** `refs/loop/backup/<safe id>`. */
  readonly backupRef: string;
}

/** The names of the task `taskId`. */
export function taskNames(context: WorkspaceContext, taskId: string): TaskNames {
  const safeId = safeTaskId(taskId);
  return {
    safeId,
    branch: `${context.options.branchPrefix}${safeId}`,
    path: join(context.repository.root, safeId),
    backupRef: `refs/loop/backup/${safeId}`,
  };
}

/** Where kept branches go: `<prefix>kept/`. */
export function keptPrefix(context: WorkspaceContext): string {
  return `${context.options.branchPrefix}kept/`;
}
