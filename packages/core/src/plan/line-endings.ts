/** A line terminator as it appears in a text. */
export type LineEnding = "\r\n" | "\n" | "\r";

/**
 * The line ending a text uses most: `\r\n` when CRLF terminators outnumber the others,
 * `\r` when lone CRs do, `\n` otherwise (also for a text with no line ending at all).
 *
 * @param text - the text.
 * @returns its dominant line ending.
 */
export function dominantLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  let cr = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 13) {
      if (text.charCodeAt(index + 1) === 10) {
        crlf += 1;
        index += 1;
      } else cr += 1;
    } else if (code === 10) lf += 1;
  }
  if (crlf > lf && crlf >= cr) return "\r\n";
  if (cr > lf && cr > crlf) return "\r";
  return "\n";
}

/**
 * Offset of the end of the line containing `offset`: the index of its line terminator,
 * or the text's length on the last line.
 *
 * @param text - the text.
 * @param offset - any offset in the line.
 * @returns the offset just before the line's terminator.
 */
export function lineEndAt(text: string, offset: number): number {
  let index = offset;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 10 || code === 13) break;
    index += 1;
  }
  return index;
}

/**
 * Offset of the start of the line containing `offset`.
 *
 * @param text - the text.
 * @param offset - any offset in the line.
 * @returns the offset just after the previous line's terminator, or 0.
 */
export function lineStartAt(text: string, offset: number): number {
  let index = offset;
  while (index > 0) {
    const code = text.charCodeAt(index - 1);
    if (code === 10 || code === 13) break;
    index -= 1;
  }
  return index;
}

/**
 * The terminator that starts at `offset`, or `null` at the end of the text.
 *
 * @param text - the text.
 * @param offset - an offset returned by {@link lineEndAt}.
 * @returns the terminator there.
 */
export function lineEndingAt(text: string, offset: number): LineEnding | null {
  const code = text.charCodeAt(offset);
  if (code === 13) return text.charCodeAt(offset + 1) === 10 ? "\r\n" : "\r";
  if (code === 10) return "\n";
  return null;
}
