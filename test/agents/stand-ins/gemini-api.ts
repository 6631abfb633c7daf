import { readFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in of the Gemini API (generativelanguage.googleapis.com) for the real Gemini CLI
// 0.61.0, scripted per test. What the real CLI needed, as observed against it:
//
// - Base URL: `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:<port>` (plain http is accepted for
//   loopback only) plus `GEMINI_API_KEY`, sent as the `x-goog-api-key` header. 0.61.0 derives the
//   auth type "gateway" from `GOOGLE_GEMINI_BASE_URL` alone and then rejects it ("Invalid auth
//   method selected.", exit 41), so `$HOME/.gemini/settings.json` must also say
//   `security.auth.selectedType: "gemini-api-key"` (see {@link GEMINI_OFFLINE_SETTINGS}).
// - `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`: the conversation. Body
//   `{ contents, systemInstruction, tools, generationConfig }`; the user's prompt is one
//   `contents[].parts[].text`. Answered as server-sent events, `data: <GenerateContentResponse>`
//   lines each followed by a blank line, with `candidates[0].content.parts` holding `text` or
//   `functionCall: { name, args }`, a `finishReason` and `usageMetadata`.
// - `POST /v1beta/models/<model>:generateContent`: side calls with
//   `generationConfig.responseJsonSchema` — the model router's classifier before every turn
//   (`{ complexity_reasoning, complexity_score }`, on a flash-lite model), and when enabled the
//   next-speaker check (`{ reasoning, next_speaker }`) and loop detection
//   (`{ unproductive_state_analysis, unproductive_state_confidence }`). Answered with JSON text
//   built from the schema (see {@link sideAnswer}), never from the test's script.
// - `countTokens` was not called by 0.61.0 in these runs; it is answered anyway (an estimate).
// - Errors: the CLI reads `{ error: { code, message, status } }`. It retries 429 and 5xx up to
//   10 times from a 5 s delay, and never retries 400, so unscripted requests get 400.

/** One scripted answer of the conversation (one `streamGenerateContent` request). */
export type GeminiReply =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "functionCall";
      readonly name: string;
      readonly args: Readonly<Record<string, unknown>>;
    }
  | {
      readonly type: "httpError";
      readonly status: number;
      readonly message: string;
      /** The Google RPC status name, e.g. `INVALID_ARGUMENT`. */
      readonly statusName: string;
    };

/** A model answer of plain text (the turn ends). */
export function textReply(text: string): GeminiReply {
  return { type: "text", text };
}

/** A model answer calling one tool of the CLI with these arguments. */
export function functionCallReply(
  name: string,
  args: Readonly<Record<string, unknown>>,
): GeminiReply {
  return { type: "functionCall", name, args };
}

/** A call of the CLI's `write_file` tool (`file_path` may be relative to the workspace). */
export function writeFileReply(filePath: string, content: string): GeminiReply {
  return functionCallReply("write_file", { file_path: filePath, content });
}

/** A call of the CLI's `replace` tool: `oldString` must occur exactly once in the file. */
export function replaceReply(filePath: string, oldString: string, newString: string): GeminiReply {
  return functionCallReply("replace", {
    file_path: filePath,
    instruction: `Replace ${JSON.stringify(oldString)} with ${JSON.stringify(newString)}.`,
    old_string: oldString,
    new_string: newString,
  });
}

/** A call of the CLI's `run_shell_command` tool. */
export function shellCommandReply(command: string, description = "run a command"): GeminiReply {
  return functionCallReply("run_shell_command", { command, description });
}

/** An HTTP error answer, as the Gemini API sends one. */
export function httpErrorReply(status: number, message: string, statusName: string): GeminiReply {
  return { type: "httpError", status, message, statusName };
}

/** What a recorded request was to the stand-in. */
export type GeminiRequestRole =
  /** A conversation turn; it took the next scripted reply. */
  | "conversation"
  /** A side call with a JSON schema (router, next-speaker check, loop detection), or countTokens. */
  | "side"
  /** Anything else, or a conversation turn after the script ran out: answered with a 400. */
  | "unscripted";

/** One request the CLI made. */
export interface GeminiRequest {
  readonly method: string;
  /** The path and query, e.g. `/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`. */
  readonly path: string;
  /** The model of `/models/<model>:<operation>`, if the path has one. */
  readonly model: string | undefined;
  /** The operation of `/models/<model>:<operation>`, e.g. `streamGenerateContent`. */
  readonly operation: string | undefined;
  readonly role: GeminiRequestRole;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body (`undefined` when there was none or it was not JSON). */
  readonly body: unknown;
}

/**
 * A conversation answer decided by the request's parsed JSON body (where several CLIs share one
 * stand-in, as a parallel run's agents do, the order of their requests is not known).
 */
export type GeminiReplyFunction = (body: unknown) => GeminiReply;

/** Options of {@link startGeminiStandIn}. */
export interface GeminiStandInOptions {
  /** The conversation's answers, one per `streamGenerateContent` request, in order. */
  readonly replies: readonly (GeminiReply | GeminiReplyFunction)[];
}

/** A running stand-in. */
export interface GeminiStandIn {
  /** The base URL for `GOOGLE_GEMINI_BASE_URL`, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Every request so far, in arrival order (live). */
  readonly requests: readonly GeminiRequest[];
  /** How many scripted replies are still unused. */
  remainingReplies(): number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** The model version the stand-in reports. */
const MODEL_VERSION = "gemini-stand-in";
/** Request bodies above this size are refused (a bound, not a limit the CLI reaches). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** A request that does not arrive completely within this time is dropped by the server. */
const REQUEST_TIMEOUT_MS = 15_000;
const MODEL_PATH = /^\/v1(?:beta|alpha)?\/models\/([^/:?]+):([A-Za-z]+)/;

/**
 * Starts the stand-in on 127.0.0.1 (a free port). Conversation turns take the scripted replies
 * in order; side calls with a JSON schema get {@link sideAnswer}; everything else, and turns
 * after the script ran out, get a 400 naming the request. Every answer is written at once and
 * ended: nothing waits.
 */
export async function startGeminiStandIn(options: GeminiStandInOptions): Promise<GeminiStandIn> {
  const script = [...options.replies];
  const requests: GeminiRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on("end", () => {
      const path = request.url ?? "/";
      const match = MODEL_PATH.exec(path);
      const body = parseJson(Buffer.concat(chunks).toString("utf8"));
      const model = match?.[1];
      const operation = match?.[2];
      const record = (role: GeminiRequestRole) =>
        requests.push({
          method: request.method ?? "",
          path,
          model,
          operation,
          role,
          headers: request.headers,
          body,
        });
      if (size > MAX_BODY_BYTES) {
        record("unscripted");
        sendError(
          response,
          413,
          `gemini stand-in: request body over ${MAX_BODY_BYTES} bytes`,
          "INVALID_ARGUMENT",
        );
        return;
      }
      const schema = responseSchemaOf(body);
      if (request.method === "POST" && schema !== undefined && isGenerate(operation)) {
        record("side");
        sendCandidate(response, operation, [{ text: JSON.stringify(sideAnswer(schema)) }]);
        return;
      }
      if (request.method === "POST" && operation === "countTokens") {
        record("side");
        sendJson(response, 200, { totalTokens: Math.ceil(size / 4) });
        return;
      }
      const next =
        request.method === "POST" && operation === "streamGenerateContent"
          ? script.shift()
          : undefined;
      const reply = typeof next === "function" ? next(body) : next;
      if (reply === undefined) {
        record("unscripted");
        const why =
          operation === "streamGenerateContent" ? "no scripted reply left" : "not scripted";
        sendError(
          response,
          400,
          `gemini stand-in: ${request.method} ${path}: ${why}`,
          "INVALID_ARGUMENT",
        );
        return;
      }
      record("conversation");
      if (reply.type === "httpError") {
        sendError(response, reply.status, reply.message, reply.statusName);
      } else if (reply.type === "text") {
        sendCandidate(response, operation, [{ text: reply.text }]);
      } else {
        sendCandidate(response, operation, [
          { functionCall: { name: reply.name, args: reply.args } },
        ]);
      }
    });
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    remainingReplies: () => script.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The answer to a side call: an object with every required property of the JSON schema, filled
 * so that the CLI's main conversation goes on unchanged — `next_speaker: "user"` (the turn ends
 * as the script says), a moderate `complexity_score` (routing picks a model, the stand-in answers
 * every model alike), `unproductive_state_confidence: 0` (no loop detected); other strings get
 * the first `enum` value or a placeholder, numbers 0, booleans false.
 */
export function sideAnswer(schema: JsonSchema): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? Object.keys(properties)) {
    answer[name] = SIDE_DEFAULTS[name] ?? defaultValue(properties[name]);
  }
  return answer;
}

/** The part of a JSON schema (OpenAPI style, any case of `type`) the stand-in reads. */
export interface JsonSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
}

const SIDE_DEFAULTS: Readonly<Record<string, unknown>> = {
  next_speaker: "user",
  complexity_score: 30,
  unproductive_state_confidence: 0,
};

function defaultValue(schema: JsonSchema | undefined): unknown {
  if (schema?.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
  switch (schema?.type?.toLowerCase()) {
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return sideAnswer(schema);
    default:
      return "stand-in answer";
  }
}

function isGenerate(operation: string | undefined): operation is string {
  return operation === "generateContent" || operation === "streamGenerateContent";
}

function responseSchemaOf(body: unknown): JsonSchema | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const config = (body as { generationConfig?: Record<string, unknown> }).generationConfig;
  const schema = config?.responseJsonSchema ?? config?.responseSchema;
  return typeof schema === "object" && schema !== null ? (schema as JsonSchema) : undefined;
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function sendCandidate(
  response: ServerResponse,
  operation: string | undefined,
  parts: readonly unknown[],
): void {
  const candidate = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: MODEL_VERSION,
  };
  if (operation !== "streamGenerateContent") {
    sendJson(response, 200, candidate);
    return;
  }
  const data = `data: ${JSON.stringify(candidate)}\r\n\r\n`;
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "content-length": Buffer.byteLength(data),
  });
  response.end(data);
}

function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  statusName: string,
): void {
  sendJson(response, status, { error: { code: status, message, status: statusName } });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=UTF-8",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

/** The texts of every `contents[].parts[].text` of a request body of role `user`, in order. */
export function userTexts(request: GeminiRequest): readonly string[] {
  const body = request.body as { contents?: { role?: string; parts?: { text?: unknown }[] }[] };
  const texts: string[] = [];
  for (const content of body?.contents ?? []) {
    if (content.role !== "user") continue;
    for (const part of content.parts ?? [])
      if (typeof part.text === "string") texts.push(part.text);
  }
  return texts;
}

/**
 * `$HOME/.gemini/settings.json` for an offline run against the stand-in: API-key auth (the base
 * URL alone selects an auth type 0.61.0 rejects), and no usage statistics (Clearcut, which
 * otherwise resolves play.googleapis.com), telemetry, auto update or update notification.
 */
export const GEMINI_OFFLINE_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
} as const;

/**
 * The preload of {@link offlineGuardEnvironment}: records, without changing anything, every DNS
 * lookup of a name and every socket connection to an address that is not loopback.
 */
const OFFLINE_GUARD_SOURCE = `
import dns from "node:dns";
import net from "node:net";
import { appendFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const log = process.env.LOOP_OFFLINE_GUARD_LOG;
const loopback = (host) => host === undefined || host === "" || host === "localhost" || host === "::1" || /^(::ffff:)?127\\./.test(host);
const note = (kind, host) => { if (log && !loopback(String(host))) appendFileSync(log, kind + " " + String(host) + "\\n"); };
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) { note("lookup", host); return lookup.call(this, host, ...rest); };
const promisesLookup = dns.promises.lookup;
dns.promises.lookup = function (host, ...rest) { note("lookup", host); return promisesLookup.call(this, host, ...rest); };
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === "object" && first !== null && first.path === undefined) note("connect", first.host);
  else if (typeof first === "number" || (typeof first === "string" && /^\\d+$/.test(first))) note("connect", typeof args[1] === "string" ? args[1] : undefined);
  return connect.apply(this, args);
};
syncBuiltinESMExports();
`;

/**
 * Environment variables that make every Node process of a run (the Gemini CLI relaunches itself
 * and keeps `NODE_OPTIONS`) append `lookup <host>` or `connect <host>` to `logFile` for any host
 * that is not loopback. Read it with {@link readNetworkAttempts}.
 */
export function offlineGuardEnvironment(logFile: string): Record<string, string> {
  const url = `data:text/javascript,${encodeURIComponent(OFFLINE_GUARD_SOURCE)}`;
  return { NODE_OPTIONS: `--import=${url}`, LOOP_OFFLINE_GUARD_LOG: logFile };
}

/** The non-loopback hosts a guarded run tried, one `lookup <host>` or `connect <host>` each. */
export async function readNetworkAttempts(logFile: string): Promise<readonly string[]> {
  const text = await readFile(logFile, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line !== "");
}
