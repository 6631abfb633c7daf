/** Claude Code's file-editing tools, and the input field naming the file each one edits. */
const EDIT_TOOLS: Readonly<Record<string, string>> = {
  Edit: "file_path",
  MultiEdit: "file_path",
  Write: "file_path",
  NotebookEdit: "notebook_path",
};

/** The part of a transcript written since the previous stop. */
export interface TranscriptSince {
  /** The lines after the first `fromLine`, joined by line breaks. */
  readonly recent: string;
  /** Lines in the whole transcript: the `fromLine` of the next stop. */
  readonly lines: number;
}

/**
 * The lines of a Claude Code transcript (JSON lines) written after its first `fromLine`: one
 * iteration of a Stop-hook loop. A `fromLine` beyond the transcript's end (a new transcript)
 * gives the whole transcript.
 *
 * @param jsonl - the transcript's text.
 * @param fromLine - lines already read at the previous stop.
 */
export function transcriptSince(jsonl: string, fromLine: number): TranscriptSince {
  const lines = jsonl.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const start = fromLine > lines.length ? 0 : Math.max(0, fromLine);
  return { recent: lines.slice(start).join("\n"), lines: lines.length };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function editedPath(block: unknown): string | null {
  if (!isRecord(block) || block.type !== "tool_use" || typeof block.name !== "string") return null;
  const field = EDIT_TOOLS[block.name];
  if (field === undefined || !isRecord(block.input)) return null;
  const path = block.input[field];
  return typeof path === "string" && path !== "" ? path : null;
}

/**
 * Counts the distinct files the assistant edited (tool uses of `Edit`, `MultiEdit`, `Write` and
 * `NotebookEdit`) in Claude Code transcript lines: the Stop hook's measure of an iteration's
 * progress. Files changed through Bash are not seen. Lines that are not JSON, or not assistant
 * messages, are skipped; it never throws.
 *
 * @param jsonl - transcript lines (see {@link transcriptSince}).
 */
export function countEditedFiles(jsonl: string): number {
  const files = new Set<string>();
  for (const line of jsonl.split("\n")) {
    if (!line.includes('"tool_use"')) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(entry) || entry.type !== "assistant" || !isRecord(entry.message)) continue;
    const content = entry.message.content;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      const path = editedPath(block);
      if (path !== null) files.add(path);
    }
  }
  return files.size;
}
