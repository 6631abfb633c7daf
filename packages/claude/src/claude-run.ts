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
}

/** A `rate_limit_event` whose `rate_limit_info.status` is `rejected`: the account is out of quota. */
export interface ClaudeRateLimitRejection {
  /** When the limit resets, in epoch milliseconds (`resetsAt` is sent in epoch seconds). */
  readonly resetsAt: number;
  /** The limit's kind (`rateLimitType`: `five_hour`, `seven_day`, …), when given. */
  readonly type?: string;
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
  /** Lines that were not JSON objects: counted, never thrown. */
  readonly malformedLines: number;
}
