/**
 * Environment variables {@link CommandExecutor} removes from `process.env` before it starts an
 * agent (when no explicit `env` is given).
 *
 * - `CLAUDECODE` — set inside a Claude Code session; `claude` refuses to start when it sees it,
 *   so a loop started from inside Claude Code could not run `claude` otherwise.
 * - `CLAUDE_CODE_ENTRYPOINT` — tells Claude Code how the parent session was started; a child
 *   agent must not inherit it.
 */
export const REMOVED_ENV_VARIABLES: readonly string[] = Object.freeze([
  "CLAUDECODE",
  "CLAUDE_CODE_ENTRYPOINT",
]);

/**
 * The environment a child agent gets by default: `environment` minus {@link REMOVED_ENV_VARIABLES}.
 *
 * @param environment - the environment to copy (usually `process.env`).
 * @returns a new object; `environment` is not changed.
 */
export function inheritedEnvironment(
  environment: NodeJS.ProcessEnv,
): Record<string, string | undefined> {
  const copy: Record<string, string | undefined> = { ...environment };
  for (const name of REMOVED_ENV_VARIABLES) delete copy[name];
  return copy;
}
