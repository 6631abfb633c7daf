import type { ExecutionResult, UsageLimit } from "@loop/core";
import type { ClaudeRun, ClaudeUsage } from "./claude-run.js";
import { describeClaudeFailure, endedByTimeout } from "./describe-claude-failure.js";
import { detectUsageLimit } from "./detect-usage-limit.js";

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
  /** The end of the process's standard error, for the cause of a failure. Default: none. */
  readonly stderr?: string | null | undefined;
}

/**
 * The usage limit of a failed run: a rejected `rate_limit_event` first (unless the run went on
 * paid from extra usage), else the result text's words. A run that succeeded hit no limit: its
 * work is done and paid for, whatever the limit events said.
 */
function usageLimitOf(
  run: ClaudeRun,
  outcome: ClaudeProcessOutcome,
  failed: boolean,
): UsageLimit | null {
  if (!failed || endedByTimeout(outcome)) return null;
  const rejection = run.rateLimitRejection;
  if (rejection !== null && rejection.usingOverage !== true) {
    const message =
      run.result?.text.trim() ||
      `Claude rate limit rejected${rejection.type === undefined ? "" : ` (${rejection.type})`}`;
    return { resetAt: rejection.resetsAt, waitable: true, message };
  }
  const text = run.result?.text ?? run.apiErrorMessage?.text;
  if (text === undefined) return null;
  return detectUsageLimit(text, outcome.now, { timeZone: outcome.timeZone });
}

/** A count from the `usage` object, 0 when absent or not a number. */
function count(usage: ClaudeUsage, key: string): number {
  const value = usage[key];
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * What this run cost and used. Claude Code 2.1.3xx reports a resumed session's running total in
 * `total_cost_usd` and `modelUsage`, and this run's share in `model_usage_since_last_result`;
 * older versions report this run's in `total_cost_usd` and `modelUsage`. `modelUsage` counts every
 * model the run called (sub-agents, side calls); `usage` only the main loop, so it is the last
 * resort for tokens.
 */
function spendingOf(run: ClaudeRun): {
  costUsd: number | null;
  tokens: { input: number; output: number } | null;
} {
  const result = run.result;
  if (result === null) return { costUsd: null, tokens: null };
  const since = result.modelUsageSinceLastResult;
  if (since !== null) {
    return {
      costUsd: since.costUsd,
      tokens: { input: since.inputTokens, output: since.outputTokens },
    };
  }
  const models = result.modelUsage;
  const usage = result.usage;
  const tokens =
    models !== null && models.inputTokens + models.outputTokens > 0
      ? { input: models.inputTokens, output: models.outputTokens }
      : usage === null
        ? null
        : {
            input:
              count(usage, "input_tokens") +
              count(usage, "cache_creation_input_tokens") +
              count(usage, "cache_read_input_tokens"),
            output: count(usage, "output_tokens"),
          };
  return { costUsd: result.totalCostUsd, tokens };
}

/**
 * Turns a parsed Claude Code run and its process outcome into the engine's
 * `ExecutionResult`. The output is the final result text only (never tool output, never
 * the prompt). The run succeeded only when a `success` result with `is_error: false` arrived,
 * the exit code was 0 and it did not time out; `is_error: true` is a failure whatever the exit
 * code, and `error` gives its cause in the CLI's own words (the result's `errors`, the message the
 * CLI wrote in place of the model's, stderr).
 *
 * A failed run's usage limit comes from a rejected `rate_limit_event` first, else from the result
 * text ({@link detectUsageLimit}); a run that succeeded, or went on paid from extra usage, hit no
 * limit; a timeout (or exit code 124) is never a limit. The cost is what this run added, also
 * when it resumed a session whose running total the CLI reports.
 *
 * @param run - the parsed stream ({@link parseClaudeStream}).
 * @param outcome - how the process ended, the current time and the end of stderr.
 * @returns the execution result.
 */
export function toExecutionResult(run: ClaudeRun, outcome: ClaudeProcessOutcome): ExecutionResult {
  const result = run.result;
  const error = describeClaudeFailure(run, outcome);
  const usageLimit = usageLimitOf(run, outcome, error !== undefined);
  const { costUsd, tokens } = spendingOf(run);
  return {
    output: result?.text ?? "",
    success: error === undefined,
    sessionId: run.sessionId,
    ...(costUsd === null ? {} : { costUsd }),
    ...(tokens === null ? {} : { tokens }),
    permissionDenials: result?.permissionDenials ?? [],
    ...(usageLimit === null ? {} : { usageLimit }),
    ...(error === undefined ? {} : { error }),
  };
}
