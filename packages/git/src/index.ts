export { GitCommandError, type GitCommandErrorOptions } from "./git-command-error.js";
export { GitVersionError } from "./git-version-error.js";
export { gitWorkspaces } from "./git-workspaces.js";
export type { GitWorkspacesOptions } from "./git-workspaces-options.js";
export { PlanOutsideRepositoryError } from "./plan-outside-repository-error.js";
export { RepositoryError } from "./repository-error.js";
export { safeTaskId } from "./safe-task-id.js";
export { DEFAULT_LOCK_TIMEOUT_MS } from "./stale-locks.js";
export { WorkspaceStateError } from "./workspace-state-error.js";
