import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { readRequestBody } from "./read-request-body.js";

// A local stand-in of the OpenAI Responses API, enough for the real Codex CLI to run a turn
// offline. It listens on 127.0.0.1 only (a free port) and answers each `POST /v1/responses` with
// the next reply the test scripted, then records the request so the test can read what Codex
// sent (the prompt, the tool outputs).
//
// What Codex 0.171.0 needed (found by running it against this server, offline):
// - A provider in `$CODEX_HOME/config.toml` (see `codexConfigToml`): `base_url` ending in `/v1`
//   (Codex posts to `<base_url>/responses`), `wire_api = "responses"`, and `env_key` naming the
//   variable that holds the API key (sent as `Authorization: Bearer <key>`). Retries set to 0:
//   by default Codex repeats a failed request 5 times, with back-off ("Reconnecting... 1/5").
// - The reply is Server-Sent Events (`content-type: text/event-stream`), one JSON object per
//   `data:` line, its `type` naming the event (the `event:` line is optional to Codex). Codex
//   needs only `response.output_item.done` (the finished item: an assistant `message` with
//   `output_text` content, or a `function_call` with `name`, `call_id` and JSON `arguments`) and
//   `response.completed` (with `response.id`; `response.usage` is optional, it feeds the
//   "tokens used" line). Without `response.completed` Codex fails the turn with "stream
//   disconnected before completion: stream closed before response.completed". This server also
//   sends `response.created`, `response.output_item.added` and `response.output_text.delta`, as
//   the real API does.
// - A shell command is a `function_call` of the shell tool Codex offered in `tools`: 0.171.0
//   offers `exec_command` with `{ cmd }` (unified exec); the older `shell` with `{ command: argv }`
//   is used when a Codex offers that instead. Codex runs it, then posts again with a
//   `function_call_output` item in `input`, which takes the next scripted reply; a turn ends at a
//   reply without a tool call.
// - An HTTP error is a status and a JSON body `{ error: { message, type, param, code } }`. Codex
//   0.171.0 prints on stderr, as `ERROR: …` (twice): for a 401 `unexpected status 401
//   Unauthorized: <message>, url: <url>`; for a 400 the whole JSON body; for a 404 the message;
//   for a 429 `exceeded retry limit, last status: 429 Too Many Requests`; for a 5xx only its own
//   "We’re currently experiencing high demand, which may cause temporary errors." An unscripted
//   request therefore shows up in Codex's error as this server's 400 message.
// - Codex contacts no host but this one only with `features.plugins = false` (else it syncs a
//   plugin catalog from github.com, api.github.com and chatgpt.com at start-up) and
//   `analytics.enabled = false` or `otel.metrics_exporter = "none"` (else it sends metrics to
//   ab.chatgpt.com). It honours HTTPS_PROXY for all of these (its git too), so a test that points
//   the proxy variables here sees any such attempt as a `CONNECT host:443` in `strayRequests`.

/** One scripted answer to one `POST /v1/responses`. */
export type ScriptedReply =
  /** The assistant says `text` and the turn ends. */
  | { readonly kind: "message"; readonly text: string }
  /** The assistant runs `command` with Codex's shell tool (Codex then asks for the next reply). */
  | { readonly kind: "shell"; readonly command: string }
  /** The assistant calls any function tool with these JSON arguments. */
  | {
      readonly kind: "function-call";
      readonly name: string;
      readonly arguments: Readonly<Record<string, unknown>>;
    }
  /** The API fails: HTTP `status` with an OpenAI-style error body carrying `message`. */
  | {
      readonly kind: "http-error";
      readonly status: number;
      readonly message: string;
      readonly type?: string;
      readonly code?: string;
    };

/**
 * A reply the test decides when the request arrives, from what Codex sent (e.g. the task the
 * loop's prompt names, or a tool's output).
 */
export type ReplyFunction = (request: RecordedRequest) => ScriptedReply;

/** A request the stand-in received. */
export interface RecordedRequest {
  /** `POST`, or `CONNECT` for a proxy request. */
  readonly method: string;
  /** The path with the query, e.g. `/v1/responses` (`host:443` for `CONNECT`). */
  readonly url: string;
  /** The request's headers, lower-case names (e.g. `authorization`). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  readonly body: unknown;
}

/** A running stand-in. */
export interface OpenAiResponsesStandIn {
  /** The base URL to give Codex as `base_url`, e.g. `http://127.0.0.1:40123/v1`. */
  readonly url: string;
  /** Every `POST /v1/responses` received, in order (each took one scripted reply, or none left). */
  readonly requests: readonly RecordedRequest[];
  /** Anything else received: other paths, proxy requests (`CONNECT host:443`). Should stay empty. */
  readonly strayRequests: readonly RecordedRequest[];
  /** How many scripted replies are still unused. */
  readonly remainingReplies: () => number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Options of {@link startOpenAiResponsesStandIn}. */
export interface OpenAiResponsesStandInOptions {
  /** The replies, one per `POST /v1/responses`, in order. */
  readonly replies: readonly (ScriptedReply | ReplyFunction)[];
  /** The model name echoed in responses. Default `"gpt-stand-in"`. */
  readonly model?: string;
}

/** The longest a request body may be before the stand-in refuses it (Codex sends ~40 KiB). */
const MAXIMUM_BODY_BYTES = 16 * 1024 * 1024;
/** A request that has not arrived in full after this long is dropped. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Starts the stand-in on 127.0.0.1 at a free port.
 *
 * A request after the last scripted reply gets HTTP 400 with the message
 * `stand-in: no scripted reply left for request #N` (Codex prints it in its error); every reply
 * is written in full at once, with its length, so Codex never waits on this server.
 *
 * @param options - the scripted replies.
 * @returns the running stand-in; call `close()` when done.
 */
export async function startOpenAiResponsesStandIn(
  options: OpenAiResponsesStandInOptions,
): Promise<OpenAiResponsesStandIn> {
  const replies = [...options.replies];
  const model = options.model ?? "gpt-stand-in";
  const requests: RecordedRequest[] = [];
  const strayRequests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((request, response) => {
    readBody(request)
      .then((text) => {
        const recorded: RecordedRequest = {
          method: request.method ?? "",
          url: request.url ?? "",
          headers: { ...request.headers },
          body: parseJson(text),
        };
        if (request.method !== "POST" || pathOf(recorded.url) !== "/v1/responses") {
          strayRequests.push(recorded);
          sendJson(
            response,
            404,
            errorBody(`stand-in: no such endpoint ${recorded.method} ${recorded.url}`),
          );
          return;
        }
        requests.push(recorded);
        const next = replies.shift();
        const reply = typeof next === "function" ? next(recorded) : next;
        if (reply === undefined) {
          const message = `stand-in: no scripted reply left for request #${requests.length}`;
          sendJson(response, 400, errorBody(message, "invalid_request_error"));
          return;
        }
        answer(response, reply, recorded.body, requests.length, model);
      })
      .catch((error: unknown) => {
        sendJson(response, 400, errorBody(`stand-in: ${String(error)}`, "invalid_request_error"));
      });
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = 1000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // A client that treats this server as its HTTP proxy would send `CONNECT host:443`: record it
  // (the test then fails on it) and refuse.
  server.on("connect", (request: IncomingMessage, socket: Socket) => {
    strayRequests.push({
      method: request.method ?? "CONNECT",
      url: request.url ?? "",
      headers: { ...request.headers },
      body: "",
    });
    socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    strayRequests,
    remainingReplies: () => replies.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The `config.toml` that points Codex at a stand-in: a provider named `stand-in` selected as the
 * default, no retries, no plugin sync and no metrics (nothing that reaches another host).
 *
 * @param baseUrl - the stand-in's `url`.
 * @param apiKeyVariable - the environment variable that holds the API key.
 * @returns the file's text.
 */
export function codexConfigToml(baseUrl: string, apiKeyVariable: string): string {
  return [
    'model = "gpt-stand-in"',
    'model_provider = "stand-in"',
    "",
    "[model_providers.stand-in]",
    'name = "OpenAI Responses API stand-in"',
    `base_url = ${JSON.stringify(baseUrl)}`,
    `env_key = ${JSON.stringify(apiKeyVariable)}`,
    'wire_api = "responses"',
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
    "[features]",
    "plugins = false",
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[otel]",
    'metrics_exporter = "none"',
    "",
  ].join("\n");
}

/**
 * The texts of the user messages of a recorded request, in order: the prompt is the last one of
 * the first request of a turn (Codex puts its environment context in earlier user messages).
 *
 * @param request - a request the stand-in recorded.
 */
export function userMessageTexts(request: RecordedRequest): string[] {
  const body = request.body as { input?: unknown } | null;
  if (body === null || typeof body !== "object" || !Array.isArray(body.input)) return [];
  const texts: string[] = [];
  for (const item of body.input as Array<Record<string, unknown>>) {
    if (item.type !== "message" || item.role !== "user" || !Array.isArray(item.content)) continue;
    for (const part of item.content as Array<Record<string, unknown>>) {
      if (part.type === "input_text" && typeof part.text === "string") texts.push(part.text);
    }
  }
  return texts;
}

/**
 * The outputs of the tool calls a recorded request reports back (`function_call_output` items).
 *
 * @param request - a request the stand-in recorded.
 */
export function functionCallOutputs(request: RecordedRequest): string[] {
  const body = request.body as { input?: unknown } | null;
  if (body === null || typeof body !== "object" || !Array.isArray(body.input)) return [];
  return (body.input as Array<Record<string, unknown>>)
    .filter((item) => item.type === "function_call_output")
    .map((item) => (typeof item.output === "string" ? item.output : JSON.stringify(item.output)));
}

function answer(
  response: ServerResponse,
  reply: ScriptedReply,
  requestBody: unknown,
  number: number,
  model: string,
): void {
  if (reply.kind === "http-error") {
    sendJson(response, reply.status, errorBody(reply.message, reply.type, reply.code));
    return;
  }
  const responseId = `resp_stand_in_${number}`;
  const events: Array<Record<string, unknown>> = [
    { type: "response.created", response: { id: responseId, model, status: "in_progress" } },
  ];
  if (reply.kind === "message") {
    const itemId = `msg_stand_in_${number}`;
    events.push(
      {
        type: "response.output_item.added",
        output_index: 0,
        item: {
          type: "message",
          id: itemId,
          role: "assistant",
          status: "in_progress",
          content: [],
        },
      },
      { type: "response.output_text.delta", output_index: 0, item_id: itemId, delta: reply.text },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          type: "message",
          id: itemId,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: reply.text, annotations: [] }],
        },
      },
    );
  } else {
    const call =
      reply.kind === "shell"
        ? shellCall(reply.command, requestBody)
        : { name: reply.name, arguments: reply.arguments };
    events.push({
      type: "response.output_item.done",
      output_index: 0,
      item: {
        type: "function_call",
        id: `fc_stand_in_${number}`,
        call_id: `call_stand_in_${number}`,
        name: call.name,
        arguments: JSON.stringify(call.arguments),
        status: "completed",
      },
    });
  }
  events.push({
    type: "response.completed",
    response: {
      id: responseId,
      model,
      status: "completed",
      usage: {
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 110,
      },
    },
  });
  const text = events
    .map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`)
    .join("");
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

/** The call of Codex's shell tool, shaped for whichever one the request offered. */
function shellCall(
  command: string,
  requestBody: unknown,
): { name: string; arguments: Record<string, unknown> } {
  const tools = (requestBody as { tools?: unknown } | null)?.tools;
  const names = Array.isArray(tools)
    ? (tools as Array<{ name?: unknown }>).map((tool) => tool.name)
    : [];
  if (!names.includes("exec_command") && names.includes("shell")) {
    return { name: "shell", arguments: { command: ["bash", "-lc", command] } };
  }
  return { name: "exec_command", arguments: { cmd: command } };
}

function errorBody(message: string, type = "server_error", code?: string): unknown {
  return { error: { message, type, param: null, code: code ?? null } };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

/** The body's text; a compressed body is refused (the stand-in reads plain JSON only). */
async function readBody(request: IncomingMessage): Promise<string> {
  const text = await readRequestBody(request, MAXIMUM_BODY_BYTES);
  const encoding = request.headers["content-encoding"];
  if (encoding !== undefined && encoding !== "identity") {
    throw new Error(`unsupported content-encoding ${encoding}`);
  }
  return text;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
