import type { ExecutionResult, UsageLimit } from "@loop/core";
import type { ClaudeRun, ClaudeUsage } from "./claude-run.js";
import { detectUsageLimit } from "./detect-usage-limit.js";

/** The exit code of `timeout(1)` when it stopped the command. */
const TIMEOUT_EXIT_CODE = 124;

/** How the Claude Code process ended, and when. */
export interface ClaudeProcessOutcome {
  /** The process's exit code; `null` when a signal killed it. */
  readonly exitCode: number | null;
  /** Whether the runner stopped it for taking too long. */
  readonly timedOut: boolean;
  /** The current time, epoch milliseconds, to turn a wall-clock reset into an instant. */
  readonly now: number;
  /** The zone of reset times that name none; see {@link DetectUsageLimitOptions.timeZone}. */
  readonly timeZone?: string | null | undefined;
}

/** The usage limit of a run: a rejected `rate_limit_event` first, else the result text's words. */
function usageLimitOf(run: ClaudeRun, outcome: ClaudeProcessOutcome): UsageLimit | null {
  if (outcome.timedOut || outcome.exitCode === TIMEOUT_EXIT_CODE) return null;
  const rejection = run.rateLimitRejection;
  if (rejection !== null) {
    const message =
      run.result?.text.trim() ||
      `Claude rate limit rejected${rejection.type === undefined ? "" : ` (${rejection.type})`}`;
    return { resetAt: rejection.resetsAt, waitable: true, message };
  }
  if (run.result === null) return null;
  return detectUsageLimit(run.result.text, outcome.now, { timeZone: outcome.timeZone });
}

/** Why a run failed, in a few words; `undefined` when it succeeded. */
function failureOf(run: ClaudeRun, outcome: ClaudeProcessOutcome): string | undefined {
  if (outcome.timedOut || outcome.exitCode === TIMEOUT_EXIT_CODE) return "Claude Code timed out";
  const result = run.result;
  if (result === null) {
    const how = outcome.exitCode === null ? "was killed" : `exited with code ${outcome.exitCode}`;
    return `Claude Code ${how} before writing a result`;
  }
  if (result.isError) return `Claude Code reported an error result (${result.subtype})`;
  if (result.subtype !== "success") return `Claude Code ended with ${result.subtype}`;
  if (outcome.exitCode !== 0)
    return `Claude Code exited with code ${outcome.exitCode ?? "null (killed)"}`;
  return undefined;
}

/** A count from the `usage` object, 0 when absent or not a number. */
function count(usage: ClaudeUsage, key: string): number {
  const value = usage[key];
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Input and output tokens from the result's `usage`, `null` when it has none. */
function tokensOf(run: ClaudeRun): { input: number; output: number } | null {
  const usage = run.result?.usage ?? null;
  if (usage === null) return null;
  return {
    input:
      count(usage, "input_tokens") +
      count(usage, "cache_creation_input_tokens") +
      count(usage, "cache_read_input_tokens"),
    output: count(usage, "output_tokens"),
  };
}

/**
 * Turns a parsed Claude Code run and its process outcome into the engine's
 * `ExecutionResult`. The output is the final result text only (never tool output, never
 * the prompt). The run succeeded only when a `success` result with `is_error: false` arrived,
 * the exit code was 0 and it did not time out; `is_error: true` is a failure whatever the exit
 * code. The usage limit comes from a rejected `rate_limit_event`, else from the result text
 * ({@link detectUsageLimit}); a timeout (or exit code 124) is never a usage limit.
 *
 * @param run - the parsed stream ({@link parseClaudeStream}).
 * @param outcome - how the process ended, and the current time.
 * @returns the execution result.
 */
export function toExecutionResult(run: ClaudeRun, outcome: ClaudeProcessOutcome): ExecutionResult {
  const result = run.result;
  const error = failureOf(run, outcome);
  const usageLimit = usageLimitOf(run, outcome);
  const tokens = tokensOf(run);
  return {
    output: result?.text ?? "",
    success: error === undefined,
    sessionId: run.sessionId,
    ...(result?.totalCostUsd == null ? {} : { costUsd: result.totalCostUsd }),
    ...(tokens === null ? {} : { tokens }),
    permissionDenials: result?.permissionDenials ?? [],
    ...(usageLimit === null ? {} : { usageLimit }),
    ...(error === undefined ? {} : { error }),
  };
}
