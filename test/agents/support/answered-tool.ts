import type { RecordedRequest } from "../stand-ins/anthropic-api.js";

/**
 * The tool the model called last, when this request sends that call's result back (the CLI ran
 * the tool and asks again); `null` for a request that starts a turn.
 */
export function answeredTool(request: RecordedRequest): string | null {
  const messages = Array.isArray(request.body?.messages) ? request.body.messages : [];
  const last = messages.at(-1) as { content?: unknown } | undefined;
  const answers =
    Array.isArray(last?.content) &&
    last.content.some((block: { type?: unknown }) => block.type === "tool_result");
  if (!answers) return null;
  const call = messages.at(-2) as { content?: unknown } | undefined;
  const uses = Array.isArray(call?.content)
    ? call.content.filter((block: { type?: unknown }) => block.type === "tool_use")
    : [];
  return (uses.at(-1) as { name?: string } | undefined)?.name ?? null;
}
