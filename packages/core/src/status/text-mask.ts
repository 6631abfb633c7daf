/** A half-open range of 0-based offsets into a text: `start` included, `end` excluded. */
export interface TextRange {
  /** Offset of the first character of the range. */
  readonly start: number;
  /** Offset just after the last character of the range. */
  readonly end: number;
}

/**
 * Replaces every character inside the given ranges with a space, keeping line breaks, so the
 * result has the same length and the same line structure as the input: an offset into the
 * result is an offset into the input.
 *
 * @param text - the text to mask.
 * @param ranges - the ranges to blank, in any order, overlapping or not.
 * @returns the masked text.
 */
export function blankRanges(text: string, ranges: readonly TextRange[]): string {
  if (ranges.length === 0) return text;
  const characters = text.split("");
  for (const range of ranges) {
    const end = Math.min(range.end, characters.length);
    for (let index = Math.max(0, range.start); index < end; index += 1) {
      const character = characters[index];
      if (character !== "\n" && character !== "\r") characters[index] = " ";
    }
  }
  return characters.join("");
}

/**
 * Keeps only the characters inside the given ranges, blanking everything else (line breaks
 * kept). The complement of {@link blankRanges}.
 *
 * @param text - the text to mask.
 * @param ranges - the ranges to keep.
 * @returns the masked text, as long as the input.
 */
export function keepRanges(text: string, ranges: readonly TextRange[]): string {
  const sorted = [...ranges].sort((left, right) => left.start - right.start);
  const gaps: TextRange[] = [];
  let cursor = 0;
  for (const range of sorted) {
    if (range.start > cursor) gaps.push({ start: cursor, end: range.start });
    cursor = Math.max(cursor, range.end);
  }
  if (cursor < text.length) gaps.push({ start: cursor, end: text.length });
  return blankRanges(text, gaps);
}
