/** A replacement of `text[start, end)` by `insert`. */
export interface TextSplice {
  /** Offset of the first character replaced (or of the insertion point). */
  readonly start: number;
  /** Offset just after the last character replaced; equal to `start` for an insertion. */
  readonly end: number;
  /** The new characters. */
  readonly insert: string;
}

/**
 * Applies non-overlapping splices to a text, leaving every other character as it was.
 * Splices at the same offset are applied in the order given.
 *
 * @param text - the original text.
 * @param splices - the replacements, in any order.
 * @returns the edited text.
 * @throws {Error} when two splices overlap (a bug in the caller).
 */
export function applySplices(text: string, splices: readonly TextSplice[]): string {
  const ordered = splices
    .map((splice, order) => ({ splice, order }))
    .sort((left, right) => left.splice.start - right.splice.start || left.order - right.order);
  let result = "";
  let cursor = 0;
  for (const { splice } of ordered) {
    if (splice.start < cursor || splice.end < splice.start || splice.end > text.length) {
      throw new Error(`Overlapping or invalid text splice at ${splice.start}-${splice.end}`);
    }
    result += text.slice(cursor, splice.start) + splice.insert;
    cursor = splice.end;
  }
  return result + text.slice(cursor);
}
