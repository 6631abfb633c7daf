/** What {@link skipPermissionsProblem} looks at: the process that will start `claude`. */
export interface SkipPermissionsContext {
  /** Whether the agent is to run with `--dangerously-skip-permissions`. */
  readonly skipPermissions: boolean;
  /** The user id the agent runs as (`process.getuid()`); `null` where there is none (Windows). */
  readonly uid: number | null;
  /** The agent's `IS_SANDBOX` variable. */
  readonly isSandbox: string | undefined;
}

/**
 * Why Claude Code will refuse to start, known before any iteration: it will not skip permission
 * checks as root ("--dangerously-skip-permissions cannot be used with root/sudo privileges for
 * security reasons") unless `IS_SANDBOX=1` says the machine is a container or sandbox. Containers
 * and CI run as root, so without this check every iteration fails the same way.
 *
 * @param context - the agent's options, user id and `IS_SANDBOX`.
 * @returns the problem and what to do, or `null` when there is none.
 */
export function skipPermissionsProblem(context: SkipPermissionsContext): string | null {
  if (!context.skipPermissions || context.uid !== 0 || context.isSandbox === "1") return null;
  return "Claude Code refuses --dangerously-skip-permissions as root (this process runs as root, as containers and CI do). Run the loop as another user; or, in a container or sandbox, set IS_SANDBOX=1; or use a permission mode (--permission-mode acceptEdits) instead of skipping permissions.";
}
