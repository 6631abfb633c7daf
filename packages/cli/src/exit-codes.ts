/**
 * The `loop` command's exit codes (docs/cli.md):
 * - `complete` 0 — the loop finished the plan, or the command succeeded;
 * - `error` 1 — something failed: an invalid plan or config (`validate` found problems), a state
 *   or executor error;
 * - `usage` 2 — the command line itself is wrong (unknown command or option, missing value);
 * - `incomplete` 3 — the loop stopped before the plan was complete (a safety exit such as
 *   `max_iterations`, `circuit_open`, `blocked`, `usage_limit`);
 * - `aborted` 130 — stopped by Ctrl+C, SIGTERM or SIGHUP (128 + SIGINT's number, as shells
 *   report it).
 */
export const CLI_EXIT_CODES = {
  complete: 0,
  error: 1,
  usage: 2,
  incomplete: 3,
  aborted: 130,
} as const;
