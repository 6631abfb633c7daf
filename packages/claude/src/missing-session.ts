import type { ClaudeRun } from "./claude-run.js";

/** How Claude Code says a `--resume` session does not exist (any more). */
const NO_CONVERSATION = /\bNo conversation found with session ID\b/i;

/**
 * Whether a run failed because the session it resumed is gone: Claude Code ends with an
 * `error_during_execution` result that echoes the id and says "No conversation found with
 * session ID: …" (its transcript was deleted, or it belongs to another folder or machine).
 *
 * @param run - the parsed stream of a run started with `--resume <sessionId>`.
 * @param sessionId - the session it resumed.
 */
export function resumedSessionIsGone(run: ClaudeRun, sessionId: string): boolean {
  const result = run.result;
  if (result === null || !result.isError) return false;
  if (result.sessionId !== null && result.sessionId !== sessionId) return false;
  return result.errors.some((error) => NO_CONVERSATION.test(error));
}
