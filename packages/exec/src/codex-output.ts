import type { ExecutionResult } from "@loop/core";
import { describeProcessEnd } from "./command-executor.js";
import type { CommandRun } from "./command-run.js";
import { meaningfulLines } from "./stderr-lines.js";

// What `codex exec` prints (checked with Codex CLI 0.171.0): the agent's last message on stdout,
// everything else on stderr — a banner, the transcript, warnings, `tokens used` and, when the
// turn fails, its cause on lines of their own, each printed twice:
//
//   ERROR: unexpected status 401 Unauthorized: Incorrect API key provided: sk-…, url: …/v1/responses
//   ERROR: unexpected status 401 Unauthorized: Incorrect API key provided: sk-…, url: …/v1/responses
//   tokens used
//   110
//
// Retries before that print `ERROR: Reconnecting... 1/5`. Start-up failures print one line too:
// `error: unexpected argument '--full-auto' found` (arguments), `Error: approval_policy = … is no
// longer supported` (config), `Not inside a trusted directory and --skip-git-repo-check was not
// specified.` With RUST_LOG set, log lines (`2026-…Z  INFO …`) come after the cause as well.

/** How many distinct cause lines the error keeps. */
const MAXIMUM_CAUSE_LINES = 3;

/** A line that says why Codex failed: `ERROR: …`, `Error: …` or `error: …`. */
const CAUSE_LINE = /^(?:ERROR|Error|error): +(.*)$/;
/** Codex's retry notices: not a cause. */
const RETRY_NOTICE = /^Reconnecting\.\.\. \d+\/\d+$/;
/** Lines that never explain a failure: log lines, warnings, banners, token counts. */
const NOISE_LINES: readonly RegExp[] = [
  /^\d{4}-\d\d-\d\dT\S+ +(?:TRACE|DEBUG|INFO|WARN|ERROR) /,
  /^(?:WARNING|warning): /,
  /^Reading additional input from stdin\.\.\.$/,
  /^tokens used$/,
  /^[\d,]+$/,
];

/**
 * The {@link CommandExecutorOptions.parse} of the Codex preset: the stdout tail (Codex's last
 * message) is the output, exit code 0 is success, and a failure's `error` names what Codex said
 * went wrong — its `ERROR:` lines (without retry notices, each once), else the last lines of
 * stderr that are not noise — after how the process ended.
 *
 * @param run - the finished `codex exec` run.
 * @returns the result.
 */
export function parseCodexRun(run: CommandRun): ExecutionResult {
  const success = run.exitCode === 0;
  return {
    output: run.stdout,
    success,
    error: success ? undefined : describeCodexFailure(run),
  };
}

/** Why a `codex exec` run failed, as one message: `exited with code 1: <cause>`. */
function describeCodexFailure(run: CommandRun): string {
  const how = describeProcessEnd(run);
  const cause = codexFailureCause(run.stderr);
  return cause === "" ? how : `${how}: ${cause}`;
}

/**
 * The cause in Codex's stderr: its distinct `ERROR:`/`Error:`/`error:` messages (the last three),
 * or, when there are none, the last three lines that are not noise; `""` when nothing is left.
 */
function codexFailureCause(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "");
  const causes: string[] = [];
  for (const line of lines) {
    const message = CAUSE_LINE.exec(line)?.[1]?.trim();
    if (message === undefined || message === "" || RETRY_NOTICE.test(message)) continue;
    if (!causes.includes(message)) causes.push(message);
  }
  if (causes.length > 0) return causes.slice(-MAXIMUM_CAUSE_LINES).join("\n");
  return meaningfulLines(stderr, NOISE_LINES, MAXIMUM_CAUSE_LINES);
}
