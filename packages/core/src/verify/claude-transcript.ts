import type { ChatTurn } from "./chat-turn.js";

/** Why a transcript line gave no turn. */
export type SkippedLineReason =
  | "malformed" // not JSON, not an object, or no usable message
  | "not-a-message" // a line of another type: summary, system, file-history-snapshot, …
  | "meta" // `isMeta: true`, or a local slash command's echo
  | "sidechain" // a sub-agent's conversation (`isSidechain: true`)
  | "compact-summary" // Claude Code's summary of a compacted conversation, not the user's words
  | "hook-feedback" // a Stop hook's reason, fed back to the agent: it ends the agent's turn
  | "no-text"; // only tool uses, tool results, thinking or images

/** A transcript line that gave no turn. */
export interface SkippedLine {
  /** Its 1-based line number. */
  readonly line: number;
  /** Why it was skipped. */
  readonly reason: SkippedLineReason;
}

/** Options of {@link parseClaudeTranscript}. */
export interface ParseClaudeTranscriptOptions {
  /** Called for each non-blank line that gave no turn. */
  readonly onSkippedLine?: ((skipped: SkippedLine) => void) | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a content block is a `{ type: "text", text }` block. */
function isTextBlock(block: unknown): block is { readonly type: "text"; readonly text: string } {
  return isRecord(block) && block.type === "text" && typeof block.text === "string";
}

/** The text of a message's content: a string, or the `text` blocks of a block array. */
function contentText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  return content
    .filter(isTextBlock)
    .map((block) => block.text)
    .join("\n\n");
}

/** Text Claude Code writes into user lines for its own local commands, not typed by the user. */
const commandEcho =
  /^\s*(?:<command-(?:name|message|args)>|<local-command-std(?:out|err)>|\[Request interrupted by user)/;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** How Claude Code writes a Stop hook's blocking reason into the transcript, as a user line. */
const hookFeedback = /^\s*Stop hook feedback:/;

/** Reads one line: a turn, or why it gives none. */
function readLine(text: string): ChatTurn | SkippedLineReason {
  const entry = parseJson(text);
  if (!isRecord(entry)) return "malformed";
  if (entry.type !== "user" && entry.type !== "assistant") {
    return typeof entry.type === "string" ? "not-a-message" : "malformed";
  }
  if (entry.isSidechain === true) return "sidechain";
  if (entry.isCompactSummary === true || entry.isVisibleInTranscriptOnly === true) {
    return "compact-summary";
  }
  const message = entry.message;
  const body = isRecord(message) ? contentText(message.content) : null;
  if (entry.type === "user" && body !== null && hookFeedback.test(body)) return "hook-feedback";
  if (entry.isMeta === true) return "meta";
  if (!isRecord(message) || body === null) return "malformed";
  if (body.trim() === "") return "no-text";
  if (entry.type === "user" && commandEcho.test(body)) return "meta";
  return { role: entry.type, text: body };
}

/**
 * Reads a Claude Code transcript (the `.jsonl` session file under `~/.claude/projects/`) into
 * chat turns for {@link extractUserConcerns}.
 *
 * Each line is a JSON object `{ type, message: { role, content }, … }`; `content` is a string
 * or an array of blocks (`{ type: "text", text }`, `{ type: "tool_use", … }`,
 * `{ type: "tool_result", … }`, `{ type: "thinking", … }`, …). Kept: the `text` of user and
 * assistant lines (text blocks joined by a blank line). Skipped, never thrown on: blank lines,
 * lines that are not JSON objects, other line types (`summary`, `system`, …), `isMeta` and
 * `isSidechain` lines, local command echoes (`<command-name>…`, `<local-command-stdout>…`,
 * "[Request interrupted by user]"), compaction summaries (`isCompactSummary`,
 * `isVisibleInTranscriptOnly`: Claude Code's words about the conversation, not the user's), and
 * lines without text — so a user line holding only tool results is not a user turn.
 *
 * Claude Code writes one line per content block, so one assistant reply spans many lines
 * (text, tool use, the tool result as a user line, more text): consecutive assistant text is
 * joined into one assistant turn, so the lookback counts replies, not blocks. A Stop hook's
 * feedback ("Stop hook feedback: …", the reason a hook gave to keep the session going) is no turn
 * of the user's, but it ends the agent's turn: each iteration of a Stop-hook loop is a reply of
 * its own. User lines are never joined: each is a message the user sent.
 *
 * @param jsonl - the transcript's text.
 * @param options - `onSkippedLine`, to count or log what was skipped.
 * @returns the turns, oldest first.
 * @example
 * ```ts
 * const turns = parseClaudeTranscript(await readFile(transcriptPath, "utf8"));
 * const concerns = extractUserConcerns(turns, { lookbackTurns: 10 });
 * ```
 */
export function parseClaudeTranscript(
  jsonl: string,
  options?: ParseClaudeTranscriptOptions | null,
): ChatTurn[] {
  const turns: ChatTurn[] = [];
  let turnEnded = false;
  jsonl.split(/\r?\n/).forEach((text, index) => {
    if (text.trim() === "") return;
    const read = readLine(text);
    if (typeof read === "string") {
      if (read === "hook-feedback") turnEnded = true;
      options?.onSkippedLine?.({ line: index + 1, reason: read });
      return;
    }
    const previous = turns.at(-1);
    const continues = !turnEnded;
    turnEnded = false;
    if (continues && read.role === "assistant" && previous?.role === "assistant") {
      turns[turns.length - 1] = { role: "assistant", text: `${previous.text}\n\n${read.text}` };
    } else {
      turns.push(read);
    }
  });
  return turns;
}
