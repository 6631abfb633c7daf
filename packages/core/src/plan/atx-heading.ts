/** What an ATX heading line holds. */
export interface AtxHeadingLine {
  /** The number of `#` (1 to 6). */
  readonly depth: 1 | 2 | 3 | 4 | 5 | 6;
  /** Offset of the heading text's first character. */
  readonly contentStart: number;
  /** Offset just after its last character (equal to the start when empty). */
  readonly contentEnd: number;
  /** Whether the line holds a tab, whose handling the fast path leaves to micromark. */
  readonly hasTab: boolean;
}

const HASH = 35;

/**
 * Reads an ATX heading (`## Title ##`) at `position`, the first character after a line's
 * indentation: 1 to 6 `#` followed by a space, a tab or the end of the line. The text is
 * what lies between the opening sequence and an optional closing sequence of `#` (preceded
 * by a space), spaces trimmed.
 *
 * @param text - the text.
 * @param position - offset of the line's first non-space character.
 * @param end - offset of the line's end.
 * @returns the heading, or `null` when the line is not one.
 */
export function readAtxHeading(text: string, position: number, end: number): AtxHeadingLine | null {
  let sequenceEnd = position;
  while (sequenceEnd < end && text.charCodeAt(sequenceEnd) === HASH) sequenceEnd += 1;
  const depth = sequenceEnd - position;
  if (depth < 1 || depth > 6) return null;
  const after = text.charCodeAt(sequenceEnd);
  if (sequenceEnd < end && after !== 32 && after !== 9) return null;
  let hasTab = false;
  for (let index = position; index < end; index += 1) {
    if (text.charCodeAt(index) === 9) hasTab = true;
  }
  let contentStart = sequenceEnd;
  while (contentStart < end && text.charCodeAt(contentStart) === 32) contentStart += 1;
  let contentEnd = trimEnd(text, contentStart, end);
  let closing = contentEnd;
  while (closing > contentStart && text.charCodeAt(closing - 1) === HASH) closing -= 1;
  if (closing === contentStart) contentEnd = contentStart;
  else if (closing < contentEnd && text.charCodeAt(closing - 1) === 32) {
    contentEnd = trimEnd(text, contentStart, closing);
  }
  return { depth: depth as AtxHeadingLine["depth"], contentStart, contentEnd, hasTab };
}

function trimEnd(text: string, start: number, end: number): number {
  let position = end;
  while (position > start && text.charCodeAt(position - 1) === 32) position -= 1;
  return position;
}
