import { splitLines } from "./text-lines.js";
import type { TextRange } from "./text-mask.js";

/** A chunk ends at the first blank line after this many lines. */
const MIN_CHUNK_LINES = 40;

/** A chunk ends after this many lines, blank line or not (fenced code blocks stay whole). */
const MAX_CHUNK_LINES = 200;

/** A line that opens a fenced code block: its indentation, fence and info string. */
const FENCE_OPEN = /^\s*(`{3,}(?=[^`]*$)|~{3,})/;

/**
 * Splits markdown into chunks that can be parsed one by one: at the first blank line outside
 * fenced code after {@link MIN_CHUNK_LINES} lines, or after {@link MAX_CHUNK_LINES} lines. micromark's time grows with
 * the square of the number of containers (lists, block quotes) in one document, so an
 * untrusted answer full of them is parsed chunk by chunk, in linear time.
 *
 * What a chunk boundary can change, rarely: a list item's paragraph indented four spaces or
 * more right after it reads as indented code (so not prose), an HTML block ends there, and a
 * boundary that is not at a blank line splits a paragraph (lines end sentences anyway).
 * Fenced code blocks, the usual way agents show code and output, stay whole.
 *
 * @param text - the markdown.
 * @returns consecutive ranges covering the text.
 */
export function splitMarkdownChunks(text: string): TextRange[] {
  const chunks: TextRange[] = [];
  let chunkStart = 0;
  let linesInChunk = 0;
  let fence: { readonly character: string; readonly length: number } | null = null;
  for (const line of splitLines(text)) {
    if (fence !== null) {
      const closing = new RegExp(`^\\s*\\${fence.character}{${fence.length},}\\s*$`);
      if (closing.test(line.text)) fence = null;
      continue;
    }
    const opening = FENCE_OPEN.exec(line.text)?.[1];
    if (opening !== undefined) {
      fence = { character: opening.charAt(0), length: opening.length };
      continue;
    }
    linesInChunk += 1;
    const blank = line.text.trim() === "";
    if ((blank && linesInChunk >= MIN_CHUNK_LINES) || linesInChunk >= MAX_CHUNK_LINES) {
      if (line.end > chunkStart) chunks.push({ start: chunkStart, end: line.end });
      chunkStart = line.end;
      linesInChunk = 0;
    }
  }
  if (chunkStart < text.length || chunks.length === 0) {
    chunks.push({ start: chunkStart, end: text.length });
  }
  return chunks;
}
