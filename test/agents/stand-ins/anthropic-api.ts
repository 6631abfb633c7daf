import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readRequestBody } from "./read-request-body.js";

// A local stand-in of the Anthropic Messages API for the real Claude Code CLI, on 127.0.0.1 only.
//
// What the real CLI (2.1.197, 2.1.332) needs, as found by running it against this server:
// - `POST /v1/messages?beta=true` with `stream: true`: Server-Sent Events `message_start`,
//   `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta`) /
//   `content_block_stop` per block, `message_delta` (stop reason, output tokens), `message_stop`.
//   A `tool_use` block with `stop_reason: "tool_use"` makes it run the tool (Write, Bash, …) and
//   send the result back in the next request.
// - Errors as JSON `{ type: "error", error: { type, message } }` with the HTTP status; 429, 529
//   and 5xx are retried by the CLI (`CLAUDE_CODE_MAX_RETRIES` bounds that).
// - The subscription limits as response headers `anthropic-ratelimit-unified-*` (status, reset,
//   overage status, representative claim); the CLI turns them into `rate_limit_event` lines.
// - Anything else (other paths, non-streaming side calls) gets a small valid answer, never a hang.
//
// Tests script the main conversation: each request that offers tools (the agent's own turns)
// takes the next reply of the script; requests without tools (titles, summaries, checks) get
// `sideReply`. Every request is recorded.

/** One tool call the model makes. */
export interface ToolCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** Token counts the reply reports. */
export interface ReplyUsage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_read_input_tokens?: number;
  readonly cache_creation_input_tokens?: number;
}

/** What the stand-in answers to one request. */
export type Reply =
  | {
      /** Text the model writes (the final answer when no tool call follows). */
      readonly text?: string;
      /** Tool calls after the text; the CLI runs them and asks again. */
      readonly tools?: readonly ToolCall[];
      /** Response headers (rate-limit headers, …). */
      readonly headers?: Readonly<Record<string, string>>;
      readonly usage?: ReplyUsage;
    }
  | {
      /** An HTTP error: status, the error's `type` and `message`. */
      readonly error: { readonly status: number; readonly type: string; readonly message: string };
      readonly headers?: Readonly<Record<string, string>>;
    };

/** A request the stand-in received. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The JSON body, `null` when there was none or it was not JSON. */
  readonly body: Readonly<Record<string, unknown>> | null;
  /** Whether it took a reply of the script (an agent turn that offers tools). */
  readonly scripted: boolean;
}

/** What decides the reply of a scripted request. */
export type Script =
  | readonly Reply[]
  | ((request: RecordedRequest, index: number) => Reply | Promise<Reply>);

/** Options of {@link startAnthropicStandIn}. */
export interface AnthropicStandInOptions {
  /** The replies to the agent's turns, in order, or a function of the request. */
  readonly script: Script;
  /** The reply to requests without tools. Default: the text "ok". */
  readonly sideReply?: Reply;
  /** The reply once a list script has run out. Default: a 500 error saying so. */
  readonly afterScript?: Reply;
}

/** A running stand-in. */
export interface AnthropicStandIn {
  /** `http://127.0.0.1:<port>`: the CLI's `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  /** Every request so far, in order. */
  readonly requests: RecordedRequest[];
  /** The requests that took a scripted reply. */
  scriptedRequests(): RecordedRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

const EXHAUSTED: Reply = {
  error: {
    status: 500,
    type: "api_error",
    message: "stand-in: the test's script has no more replies",
  },
};

/** The longest request body read (a real conversation is well under this). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function offersTools(body: Record<string, unknown> | null): boolean {
  return Array.isArray(body?.tools) && body.tools.length > 0;
}

let messageCounter = 0;

function contentBlocks(reply: Extract<Reply, { text?: string }>): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  if (reply.text !== undefined) blocks.push({ type: "text", text: reply.text });
  for (const tool of reply.tools ?? []) {
    messageCounter += 1;
    blocks.push({
      type: "tool_use",
      id: `toolu_standin_${messageCounter}`,
      name: tool.name,
      input: tool.input,
    });
  }
  return blocks;
}

function usageOf(reply: Extract<Reply, { text?: string }>): Required<ReplyUsage> {
  return {
    input_tokens: reply.usage?.input_tokens ?? 100,
    output_tokens: reply.usage?.output_tokens ?? 20,
    cache_read_input_tokens: reply.usage?.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: reply.usage?.cache_creation_input_tokens ?? 0,
  };
}

function sendError(response: ServerResponse, reply: Extract<Reply, { error: unknown }>): void {
  response.writeHead(reply.error.status, {
    "content-type": "application/json",
    "request-id": `req_standin_${messageCounter}`,
    ...reply.headers,
  });
  response.end(
    JSON.stringify({
      type: "error",
      error: { type: reply.error.type, message: reply.error.message },
    }),
  );
}

function sendMessage(
  response: ServerResponse,
  reply: Extract<Reply, { text?: string }>,
  model: string,
  stream: boolean,
): void {
  messageCounter += 1;
  const id = `msg_standin_${messageCounter}`;
  const blocks = contentBlocks(reply);
  const usage = usageOf(reply);
  const stopReason = (reply.tools ?? []).length > 0 ? "tool_use" : "end_turn";
  if (!stream) {
    response.writeHead(200, { "content-type": "application/json", ...reply.headers });
    response.end(
      JSON.stringify({
        id,
        type: "message",
        role: "assistant",
        model,
        content: blocks,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    ...reply.headers,
  });
  const send = (type: string, data: Record<string, unknown>) =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  blocks.forEach((block, index) => {
    if (block.type === "text") {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      send("content_block_delta", {
        index,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      send("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      send("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    send("content_block_stop", { index });
  });
  send("message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  send("message_stop", {});
  response.end();
}

/**
 * Starts the stand-in on 127.0.0.1 (a free port).
 *
 * @param options - the script of the agent's turns.
 */
export async function startAnthropicStandIn(
  options: AnthropicStandInOptions,
): Promise<AnthropicStandIn> {
  const requests: RecordedRequest[] = [];
  let scriptedCount = 0;
  const nextReply = async (request: RecordedRequest): Promise<Reply> => {
    const index = scriptedCount;
    scriptedCount += 1;
    const { script } = options;
    if (typeof script === "function") return script(request, index);
    return script[index] ?? options.afterScript ?? EXHAUSTED;
  };
  const server = createServer((request, response) => {
    void (async () => {
      const text = await readRequestBody(request, MAX_BODY_BYTES);
      const body = parseJson(text);
      const isMessages =
        request.method === "POST" && /^\/v1\/messages(?:\?|$)/.test(request.url ?? "");
      const scripted = isMessages && offersTools(body);
      const recorded: RecordedRequest = {
        method: request.method ?? "GET",
        url: request.url ?? "/",
        headers: request.headers,
        body,
        scripted,
      };
      requests.push(recorded);
      if (!isMessages) {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            type: "error",
            error: { type: "not_found_error", message: "stand-in: no such endpoint" },
          }),
        );
        return;
      }
      const reply = scripted ? await nextReply(recorded) : (options.sideReply ?? { text: "ok" });
      if ("error" in reply) sendError(response, reply);
      else
        sendMessage(
          response,
          reply,
          String(body?.model ?? "claude-standin"),
          body?.stream === true,
        );
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    scriptedRequests: () => requests.filter((request) => request.scripted),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The text of the last user message of a request (the prompt, or the latest tool result). */
export function lastUserText(request: RecordedRequest): string {
  const messages = Array.isArray(request.body?.messages) ? request.body.messages : [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as { role?: unknown; content?: unknown };
    if (message.role !== "user") continue;
    if (typeof message.content === "string") return message.content;
    if (!Array.isArray(message.content)) return "";
    return message.content
      .map((block: { type?: unknown; text?: unknown; content?: unknown }) => {
        if (block.type === "text" && typeof block.text === "string") return block.text;
        if (block.type === "tool_result") {
          if (typeof block.content === "string") return block.content;
          if (Array.isArray(block.content)) {
            return block.content
              .map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : ""))
              .join("\n");
          }
        }
        return "";
      })
      .join("\n");
  }
  return "";
}
