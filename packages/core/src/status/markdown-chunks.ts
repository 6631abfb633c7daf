import { splitLines } from "./text-lines.js";
import type { TextRange } from "./text-mask.js";

/** A chunk ends at the first blank line after this many lines. */
const MIN_CHUNK_LINES = 40;

/** A chunk ends after this many lines, blank line or not. */
const MAX_CHUNK_LINES = 200;

/** A chunk ends at the first blank line once it is this long, in UTF-16 code units. */
const MIN_CHUNK_LENGTH = 2000;

/** A chunk ends at the end of a line once it is this long, blank line or not. */
const MAX_CHUNK_LENGTH = 8000;

/**
 * Splits markdown into chunks that can be parsed one by one: at the first blank line after
 * {@link MIN_CHUNK_LINES} lines or {@link MIN_CHUNK_LENGTH} characters, or at the end of a line
 * after {@link MAX_CHUNK_LINES} lines or {@link MAX_CHUNK_LENGTH} characters. micromark's time
 * grows with the square of the number of containers (lists, block quotes) in one document and
 * with the square of the length of some paragraphs, so an untrusted answer is parsed chunk by
 * chunk, each of bounded size, in linear time overall. The text is the parser's copy (see
 * `prepareMarkdownInput`): fenced code is already blank and lines are at most 1,000
 * characters long.
 *
 * What a chunk boundary can change, rarely: a list item's paragraph indented four spaces or
 * more right after it reads as indented code (so not prose), an HTML block ends there, and a
 * boundary that is not at a blank line splits a paragraph (lines end sentences anyway).
 *
 * @param text - the markdown.
 * @returns consecutive ranges covering the text.
 */
export function splitMarkdownChunks(text: string): TextRange[] {
  const chunks: TextRange[] = [];
  let chunkStart = 0;
  let linesInChunk = 0;
  for (const line of splitLines(text)) {
    linesInChunk += 1;
    const length = line.end - chunkStart;
    const blank = line.text.trim() === "";
    const enough = linesInChunk >= MIN_CHUNK_LINES || length >= MIN_CHUNK_LENGTH;
    const full = linesInChunk >= MAX_CHUNK_LINES || length >= MAX_CHUNK_LENGTH;
    if ((blank && enough) || full) {
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
