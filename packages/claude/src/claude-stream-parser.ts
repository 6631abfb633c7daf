import type { PermissionDenial } from "@loop/core";
import type {
  ClaudeApiErrorMessage,
  ClaudeModelUsage,
  ClaudeRateLimitRejection,
  ClaudeResult,
  ClaudeRun,
  ClaudeToolUse,
  ClaudeUsage,
} from "./claude-run.js";

/** A JSON object of the stream, its fields not yet trusted. */
type StreamEvent = Readonly<Record<string, unknown>>;

/** The run as it is being read; frozen into a {@link ClaudeRun} by `finish`. */
interface RunDraft {
  initSessionId: string | null;
  model: string | null;
  assistantText: string[];
  toolUses: ClaudeToolUse[];
  result: ClaudeResult | null;
  rateLimitRejection: ClaudeRateLimitRejection | null;
  apiErrorMessage: ClaudeApiErrorMessage | null;
  malformedLines: number;
}

/** An incremental reader of Claude Code's stream-json output, one line at a time. */
export interface ClaudeStreamParser {
  /** Reads one line of output; blank lines are ignored, malformed ones counted. */
  push(line: string): void;
  /** The run as read so far. May be called more than once. */
  finish(): ClaudeRun;
}

/** Whether a value is a plain JSON object. */
function isObject(value: unknown): value is StreamEvent {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string field, or `null`. */
function stringField(event: StreamEvent, key: string): string | null {
  const value = event[key];
  return typeof value === "string" ? value : null;
}

/** A finite number field, or `null`. */
function numberField(event: StreamEvent, key: string): number | null {
  const value = event[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The `permission_denials` of a result event: `tool_name` and `tool_input.command` (or path). */
function readPermissionDenials(value: unknown): PermissionDenial[] {
  if (!Array.isArray(value)) return [];
  const denials: PermissionDenial[] = [];
  for (const entry of value) {
    if (!isObject(entry)) continue;
    const tool = stringField(entry, "tool_name") ?? "unknown";
    const input = isObject(entry.tool_input) ? entry.tool_input : {};
    const detail =
      stringField(input, "command") ??
      stringField(input, "file_path") ??
      stringField(input, "path") ??
      stringField(input, "url");
    denials.push({ tool, detail });
  }
  return denials;
}

/** Reads a `system` event: the `init` subtype carries the session id and model. */
function readSystem(event: StreamEvent, draft: RunDraft): void {
  if (stringField(event, "subtype") !== "init") return;
  draft.initSessionId = stringField(event, "session_id") ?? draft.initSessionId;
  draft.model = stringField(event, "model") ?? draft.model;
}

/** The text blocks of a message's content, joined. */
function textOf(content: readonly unknown[]): string {
  return content
    .filter(isObject)
    .map((block) => (block.type === "text" ? (stringField(block, "text") ?? "") : ""))
    .filter((text) => text !== "")
    .join("\n");
}

/** Reads an `assistant` event: its text and `tool_use` content blocks, or the CLI's error message. */
function readAssistant(event: StreamEvent, draft: RunDraft): void {
  const message = isObject(event.message) ? event.message : {};
  const content = Array.isArray(message.content) ? message.content : [];
  if (event.is_api_error_message === true || typeof event.error === "string") {
    // The CLI's own report of a failure ("Not logged in · Please run /login"), not the model's.
    draft.apiErrorMessage = {
      text: textOf(content),
      kind: stringField(event, "error"),
      status: numberField(event, "api_error_status"),
    };
    return;
  }
  for (const block of content) {
    if (!isObject(block)) continue;
    const type = stringField(block, "type");
    if (type === "text") {
      const text = stringField(block, "text");
      if (text !== null) draft.assistantText.push(text);
    } else if (type === "tool_use") {
      draft.toolUses.push({ name: stringField(block, "name") ?? "unknown", input: block.input });
    }
  }
}

/** A count of a `modelUsage` entry, 0 when absent or not a number. */
function modelCount(entry: StreamEvent, key: string): number {
  const value = entry[key];
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** A `modelUsage`-shaped object (`{ [model]: { inputTokens, …, costUSD } }`) summed; `null` when absent. */
function readModelUsage(value: unknown): ClaudeModelUsage | null {
  if (!isObject(value)) return null;
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd = 0;
  for (const entry of Object.values(value)) {
    if (!isObject(entry)) continue;
    inputTokens +=
      modelCount(entry, "inputTokens") +
      modelCount(entry, "cacheReadInputTokens") +
      modelCount(entry, "cacheCreationInputTokens");
    outputTokens += modelCount(entry, "outputTokens");
    costUsd += modelCount(entry, "costUSD");
  }
  return { inputTokens, outputTokens, costUsd };
}

/** The `errors` of a result: its strings. */
function readErrors(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string" && item.trim() !== "")
    : [];
}

/** Reads the final `result` event. */
function readResult(event: StreamEvent, draft: RunDraft): void {
  draft.result = {
    subtype: stringField(event, "subtype") ?? "unknown",
    isError: event.is_error === true,
    text: stringField(event, "result") ?? "",
    sessionId: stringField(event, "session_id"),
    totalCostUsd: numberField(event, "total_cost_usd"),
    usage: isObject(event.usage) ? (event.usage as ClaudeUsage) : null,
    numTurns: numberField(event, "num_turns"),
    permissionDenials: readPermissionDenials(event.permission_denials),
    errors: readErrors(event.errors),
    apiErrorStatus: numberField(event, "api_error_status"),
    modelUsage: readModelUsage(event.modelUsage),
    modelUsageSinceLastResult: readModelUsage(event.model_usage_since_last_result),
  };
}

/** Overage statuses under which a rejected plan limit goes on, paid from extra usage. */
const OVERAGE_ALLOWED = new Set(["allowed", "allowed_warning"]);

/**
 * Reads a `rate_limit_event`: only a `rejected` status with a reset time is kept, with whether
 * the run went on paid from extra usage.
 */
function readRateLimit(event: StreamEvent, draft: RunDraft): void {
  const info = isObject(event.rate_limit_info) ? event.rate_limit_info : null;
  if (info === null || stringField(info, "status") !== "rejected") return;
  const resetsAtSeconds = numberField(info, "resetsAt");
  if (resetsAtSeconds === null) return;
  const type = stringField(info, "rateLimitType");
  const usingOverage =
    info.isUsingOverage === true || OVERAGE_ALLOWED.has(stringField(info, "overageStatus") ?? "");
  draft.rateLimitRejection = {
    resetsAt: resetsAtSeconds * 1000,
    ...(type === null ? {} : { type }),
    ...(usingOverage ? { usingOverage } : {}),
  };
}

/** The readers of each event `type`; other types (`user`, `stream_event`, …) are skipped. */
const EVENT_READERS: Readonly<Record<string, (event: StreamEvent, draft: RunDraft) => void>> = {
  system: readSystem,
  assistant: readAssistant,
  result: readResult,
  rate_limit_event: readRateLimit,
};

/**
 * Creates an incremental reader of Claude Code's `--output-format stream-json --verbose`
 * output, for reading a run while it streams.
 *
 * @returns a parser: `push` each line, `finish` for the run.
 *
 * @example
 * ```ts
 * const parser = createClaudeStreamParser();
 * for (const line of lines) parser.push(line);
 * const run = parser.finish();
 * ```
 */
export function createClaudeStreamParser(): ClaudeStreamParser {
  const draft: RunDraft = {
    initSessionId: null,
    model: null,
    assistantText: [],
    toolUses: [],
    result: null,
    rateLimitRejection: null,
    apiErrorMessage: null,
    malformedLines: 0,
  };
  return {
    push(line) {
      const trimmed = line.trim();
      if (trimmed === "") return;
      let event: unknown;
      try {
        event = JSON.parse(trimmed);
      } catch {
        draft.malformedLines += 1;
        return;
      }
      if (!isObject(event) || typeof event.type !== "string") {
        draft.malformedLines += 1;
        return;
      }
      // An own property only: `"type": "__proto__"` or `"constructor"` names no reader.
      if (Object.hasOwn(EVENT_READERS, event.type)) EVENT_READERS[event.type]?.(event, draft);
    },
    finish() {
      return {
        sessionId: draft.result?.sessionId ?? draft.initSessionId,
        model: draft.model,
        assistantText: [...draft.assistantText],
        toolUses: [...draft.toolUses],
        result: draft.result,
        rateLimitRejection: draft.rateLimitRejection,
        apiErrorMessage: draft.apiErrorMessage,
        malformedLines: draft.malformedLines,
      };
    },
  };
}

/**
 * Parses the whole output of a Claude Code `--output-format stream-json --verbose` run.
 * Malformed lines are counted in {@link ClaudeRun.malformedLines}, never thrown.
 *
 * @param text - the run's standard output, one JSON event per line.
 * @returns what the run said.
 */
export function parseClaudeStream(text: string): ClaudeRun {
  const parser = createClaudeStreamParser();
  for (const line of text.split(/\r?\n/)) parser.push(line);
  return parser.finish();
}
