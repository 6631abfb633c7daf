import type { ClaudeRun } from "./claude-run.js";

/** The exit code of `timeout(1)` when it stopped the command. */
const TIMEOUT_EXIT_CODE = 124;

/** How the process ended: what {@link describeClaudeFailure} reads besides the stream. */
export interface ClaudeFailureContext {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** The end of standard error. */
  readonly stderr?: string | null | undefined;
}

/** Whether the run was stopped for taking too long (or `timeout(1)` stopped it: exit code 124). */
export function endedByTimeout(
  context: Pick<ClaudeFailureContext, "exitCode" | "timedOut">,
): boolean {
  return context.timedOut || context.exitCode === TIMEOUT_EXIT_CODE;
}

/** What Claude Code prints on stderr when it refuses to skip permissions as root. */
const ROOT_REFUSAL = /--dangerously-skip-permissions cannot be used with root/i;

/** Advice for the causes a user can act on, by the words of the cause. */
const ADVICE: readonly { readonly pattern: RegExp; readonly advice: string }[] = [
  {
    pattern: ROOT_REFUSAL,
    advice:
      "run as a user other than root, or set IS_SANDBOX=1 when this is a container or sandbox, or use a permission mode (acceptEdits) instead of skipping permissions",
  },
  {
    pattern: /\bNot logged in\b/i,
    advice: "log in with `claude /login`, or set ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN",
  },
];

/** The last non-blank lines of stderr, at most three. */
function stderrTail(stderr: string | null | undefined): string {
  return (stderr ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .slice(-3)
    .join("\n");
}

/** The cause, with advice when it is one a user can act on. */
function withAdvice(cause: string): string {
  const known = ADVICE.find((entry) => entry.pattern.test(cause));
  return known === undefined ? cause : `${cause} (${known.advice})`;
}

/** `(HTTP 401, authentication_failed)`: what the API said, when the run says it. */
function apiDetail(run: ClaudeRun): string {
  const status = run.result?.apiErrorStatus ?? run.apiErrorMessage?.status ?? null;
  const kind = run.apiErrorMessage?.kind ?? null;
  const parts = [status === null ? null : `HTTP ${status}`, kind].filter(
    (part): part is string => part !== null,
  );
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}

/**
 * Why a Claude Code run failed, in the CLI's own words; `undefined` when it succeeded.
 *
 * The cause is, in order: the result's `errors` ("No conversation found with session ID: …"), the
 * message the CLI wrote in place of the model's ("Not logged in · Please run /login", "Invalid API
 * key · Fix external API key"), the result text, then the end of stderr ("--dangerously-skip-
 * permissions cannot be used with root/sudo privileges…"), with the API's status and error kind
 * and, for causes a user can fix, what to do.
 *
 * @param run - the parsed stream.
 * @param context - how the process ended.
 * @returns one line (or a few, from stderr) for the user; `undefined` for a successful run.
 */
export function describeClaudeFailure(
  run: ClaudeRun,
  context: ClaudeFailureContext,
): string | undefined {
  if (endedByTimeout(context)) return "Claude Code timed out";
  const result = run.result;
  const stderr = stderrTail(context.stderr);
  if (result === null) {
    const how = context.exitCode === null ? "was killed" : `exited with code ${context.exitCode}`;
    const cause = run.apiErrorMessage?.text || stderr;
    return cause === ""
      ? `Claude Code ${how} before writing a result`
      : `Claude Code ${how} before writing a result: ${withAdvice(cause)}`;
  }
  if (result.isError || result.subtype !== "success") {
    const cause =
      result.errors.join("; ") || run.apiErrorMessage?.text || result.text.trim() || stderr;
    const what = result.subtype === "success" ? "Claude Code" : `Claude Code (${result.subtype})`;
    return cause === ""
      ? `${what} reported an error${apiDetail(run)}`
      : `${what}: ${withAdvice(cause)}${apiDetail(run)}`;
  }
  if (context.exitCode !== 0) {
    const how = `Claude Code exited with code ${context.exitCode ?? "null (killed)"}`;
    return stderr === "" ? how : `${how}: ${withAdvice(stderr)}`;
  }
  return undefined;
}
