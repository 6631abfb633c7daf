import type { PermissionDenial } from "@loop/core";

/** A tool call the agent made, as an `assistant` event's `tool_use` block names it. */
export interface ClaudeToolUse {
  /** The tool's name (`Bash`, `Edit`, `mcp__github__create_issue`). */
  readonly name: string;
  /** The tool's input, as the agent sent it. */
  readonly input: unknown;
}

/** The token counts of a run, as the `result` event's `usage` object reports them. */
export type ClaudeUsage = Readonly<Record<string, unknown>>;

/**
 * What one model cost, as the `result` event's `modelUsage` (and, from Claude Code 2.1.3xx,
 * `model_usage_since_last_result`) reports it per model: every model the run called, sub-agents
 * and side calls included (`usage` covers the main loop only).
 */
export interface ClaudeModelUsage {
  /** `inputTokens` + `cacheReadInputTokens` + `cacheCreationInputTokens`. */
  readonly inputTokens: number;
  /** `outputTokens`. */
  readonly outputTokens: number;
  /** `costUSD`. */
  readonly costUsd: number;
}

/** The final `result` event of a Claude Code run. */
export interface ClaudeResult {
  /** `success`, `error_max_turns`, `error_during_execution`, … */
  readonly subtype: string;
  /** The event's `is_error` flag: `true` is a failed run whatever the exit code. */
  readonly isError: boolean;
  /** The agent's final answer (`result`); the empty string when absent. */
  readonly text: string;
  /** The session id the result names, `null` when absent. */
  readonly sessionId: string | null;
  /** `total_cost_usd`, `null` when absent. */
  readonly totalCostUsd: number | null;
  /** The `usage` object, `null` when absent. */
  readonly usage: ClaudeUsage | null;
  /** `num_turns`, `null` when absent. */
  readonly numTurns: number | null;
  /** The tool calls the run was denied (`permission_denials`). */
  readonly permissionDenials: readonly PermissionDenial[];
  /** `errors`: what went wrong, in the CLI's words (`No conversation found with session ID: …`). */
  readonly errors: readonly string[];
  /** `api_error_status`: the HTTP status of the model API's error, `null` when none. */
  readonly apiErrorStatus: number | null;
  /**
   * `modelUsage` summed over its models, `null` when absent. Claude Code 2.1.3xx reports the
   * session's running total here when the run resumed a session; older versions this run's.
   */
  readonly modelUsage: ClaudeModelUsage | null;
  /**
   * `model_usage_since_last_result` summed over its models: what this run added, `null` when the
   * CLI does not report it (before 2.1.3xx).
   */
  readonly modelUsageSinceLastResult: ClaudeModelUsage | null;
}

/**
 * An assistant message the CLI made up to report a failure (`is_api_error_message`, model
 * `<synthetic>`): "Not logged in · Please run /login", "Invalid API key · Fix external API key".
 */
export interface ClaudeApiErrorMessage {
  /** The message's text. */
  readonly text: string;
  /** Its `error` kind (`authentication_failed`, `rate_limit`, `invalid_request`, `server_error`, …), `null` when absent. */
  readonly kind: string | null;
  /** `api_error_status`, the HTTP status, `null` when none (no request was made). */
  readonly status: number | null;
}

/**
 * A `rate_limit_event` whose `rate_limit_info.status` is `rejected`: the plan's limit is reached.
 * A subscriber with extra usage goes on, paid from overage (`isUsingOverage: true`,
 * `overageStatus: "allowed"`): that is no limit to wait for.
 */
export interface ClaudeRateLimitRejection {
  /** When the limit resets, in epoch milliseconds (`resetsAt` is sent in epoch seconds). */
  readonly resetsAt: number;
  /** The limit's kind (`rateLimitType`: `five_hour`, `seven_day`, …), when given. */
  readonly type?: string;
  /** Whether the run went on paid from extra usage (`isUsingOverage`, or `overageStatus` allowed). */
  readonly usingOverage?: boolean;
}

/** What a Claude Code `--output-format stream-json --verbose` run said, event by event. */
export interface ClaudeRun {
  /** The session id: the result's, else the `system`/`init` event's; `null` when neither. */
  readonly sessionId: string | null;
  /** The model the `system`/`init` event names, `null` when absent. */
  readonly model: string | null;
  /** The text blocks of every `assistant` event, in order. */
  readonly assistantText: readonly string[];
  /** The `tool_use` blocks of every `assistant` event, in order. */
  readonly toolUses: readonly ClaudeToolUse[];
  /** The final `result` event; `null` when the run ended without one (killed, crashed). */
  readonly result: ClaudeResult | null;
  /** The last rejected `rate_limit_event`, `null` when none. */
  readonly rateLimitRejection: ClaudeRateLimitRejection | null;
  /** The last assistant message that reports a failure instead of the model's words, `null` when none. */
  readonly apiErrorMessage: ClaudeApiErrorMessage | null;
  /** Lines that were not JSON objects: counted, never thrown. */
  readonly malformedLines: number;
}
