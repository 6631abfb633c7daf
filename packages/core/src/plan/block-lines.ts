import { readAtxHeading } from "./atx-heading.js";
import { readFenceOpener } from "./fence-lines.js";
import { isThematicBreak, readListMarker } from "./list-marker.js";

/**
 * Whether a line lazily continues an open paragraph (it starts no block that interrupts a
 * paragraph): `"unknown"` for lines the scanner leaves to micromark (HTML, block quotes,
 * setext-like underlines).
 *
 * @param text - the text.
 * @param position - offset of the line's first non-space character.
 * @param end - offset of the line's end.
 * @param relative - the line's indentation beyond the open containers it continues.
 */
export function continuesParagraph(
  text: string,
  position: number,
  end: number,
  relative: number,
): boolean | "unknown" {
  if (relative >= 4) return true;
  const code = text.charCodeAt(position);
  if (code === 60 || code === 62 || code === 61 || code === 45) return "unknown";
  if (isThematicBreak(text, position, end)) return false;
  if (code === 35 && readAtxHeading(text, position, end) !== null) return false;
  if ((code === 96 || code === 126) && readFenceOpener(text, position, end) !== null) return false;
  return true;
}

/**
 * Where the paragraph text of a block quote line starts (after `>` and one space), or -1 when
 * the line holds anything but the start or the next line of a paragraph: the scanner reads
 * only block quotes of one plain paragraph.
 *
 * @param text - the text.
 * @param position - offset of the line's `>`.
 * @param end - offset of the line's end.
 */
export function quoteContent(text: string, position: number, end: number): number {
  let content = position + 1;
  if (text.charCodeAt(content) === 32) content += 1;
  if (content >= end) return -1;
  const code = text.charCodeAt(content);
  if (code === 32 || code === 9 || code === 62 || code === 60 || code === 91) return -1;
  if (readListMarker(text, content, end) !== null || isThematicBreak(text, content, end)) return -1;
  if (code === 35 && readAtxHeading(text, content, end) !== null) return -1;
  if ((code === 96 || code === 126) && readFenceOpener(text, content, end) !== null) return -1;
  return content;
}

/**
 * Whether a line is a setext heading underline (`===`, `---`, trailing spaces allowed).
 *
 * @param text - the text.
 * @param position - offset of the line's first non-space character.
 * @param end - offset of the line's end.
 */
export function isSetextUnderline(text: string, position: number, end: number): boolean {
  const marker = text.charCodeAt(position);
  if (marker !== 61 && marker !== 45) return false;
  let index = position;
  while (index < end && text.charCodeAt(index) === marker) index += 1;
  while (index < end && (text.charCodeAt(index) === 32 || text.charCodeAt(index) === 9)) index += 1;
  return index === end;
}

/**
 * Whether a paragraph starting with `[` may be a link reference definition (`[label]: …`).
 *
 * @param text - the text.
 * @param position - offset of the `[`.
 * @param end - offset of the line's end.
 */
export function mayBeDefinition(text: string, position: number, end: number): boolean {
  for (let index = position + 1; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 92 || code === 91) return true;
    if (code === 93) return text.charCodeAt(index + 1) === 58;
  }
  return true;
}
