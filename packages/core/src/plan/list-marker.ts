/**
 * A list item marker at the start of a line's content, as micromark reads it. The object
 * {@link readListMarker} returns is reused by its next call: read it before calling again.
 */
export interface ListMarker {
  /** Whether it is a number (`1.`, `1)`) rather than a bullet. */
  readonly ordered: boolean;
  /** The bullet (`-`, `*`, `+`) or the delimiter after the number (`.`, `)`), as a code. */
  readonly marker: number;
  /** The number of an ordered item; `null` for a bullet. */
  readonly value: number | null;
  /** Whether an ordered item's number is exactly `1` (only such an item may interrupt a paragraph). */
  readonly isOne: boolean;
  /** Offset of the item's content: after the marker and the 1 to 4 spaces after it. */
  readonly contentStart: number;
  /** Whether nothing but spaces follows the marker on the line. */
  readonly empty: boolean;
  /** Whether the spacing after the marker is one the fast path does not follow (a tab, 5+ spaces). */
  readonly unusual: boolean;
}

/** The marker {@link readListMarker} returns, reused (lines are read one at a time). */
const marker: { -readonly [Key in keyof ListMarker]: ListMarker[Key] } = {
  ordered: false,
  marker: 0,
  value: null,
  isOne: false,
  contentStart: 0,
  empty: false,
  unusual: false,
};

const DASH = 45;
const ASTERISK = 42;
const PLUS = 43;

/**
 * Reads the list item marker at `position`, the first character after a line's
 * indentation: a bullet (`-`, `*`, `+`) or 1 to 9 digits and `.` or `)`, followed by a space,
 * a tab or the end of the line. A line that is a thematic break (`* * *`, `---`) has none.
 *
 * @param text - the text.
 * @param position - offset of the line's first non-space character.
 * @param end - offset of the line's end.
 * @returns the marker, or `null`.
 */
export function readListMarker(text: string, position: number, end: number): ListMarker | null {
  const code = text.charCodeAt(position);
  let markerEnd = position + 1;
  let value: number | null = null;
  if (code === DASH || code === ASTERISK || code === PLUS) {
    if (code !== PLUS && isThematicBreak(text, position, end)) return null;
  } else {
    while (markerEnd < end && markerEnd - position < 9 && isDigit(text.charCodeAt(markerEnd))) {
      markerEnd += 1;
    }
    if (!isDigit(code)) return null;
    const delimiter = text.charCodeAt(markerEnd);
    if (delimiter !== 46 && delimiter !== 41) return null;
    value = Number.parseInt(text.slice(position, markerEnd), 10);
    markerEnd += 1;
  }
  if (markerEnd < end) {
    const after = text.charCodeAt(markerEnd);
    if (after !== 32 && after !== 9) return null;
  }
  let contentStart = markerEnd;
  while (contentStart < end && text.charCodeAt(contentStart) === 32) contentStart += 1;
  const spaces = contentStart - markerEnd;
  const empty = contentStart === end;
  marker.ordered = value !== null;
  marker.marker = text.charCodeAt(markerEnd - 1);
  marker.value = value;
  marker.isOne = value !== null && markerEnd - position === 2 && code === 49;
  marker.contentStart = contentStart;
  marker.empty = empty;
  marker.unusual = text.charCodeAt(contentStart) === 9 || (!empty && spaces > 4);
  return marker;
}

/**
 * Whether a list item may start here: it always may, except that an item interrupting a
 * paragraph must not be empty and, if numbered, must be numbered `1`.
 *
 * @param marker - the marker.
 * @param interrupting - whether a paragraph is open.
 */
export function canStartList(marker: ListMarker, interrupting: boolean): boolean {
  if (!interrupting) return true;
  return !marker.empty && (!marker.ordered || marker.isOne);
}

/**
 * Whether the rest of a line is a thematic break: three or more `*`, `-` or `_`, the same,
 * with only spaces and tabs between and after them.
 *
 * @param text - the text.
 * @param position - offset of the line's first non-space character.
 * @param end - offset of the line's end.
 */
export function isThematicBreak(text: string, position: number, end: number): boolean {
  const marker = text.charCodeAt(position);
  if (marker !== DASH && marker !== ASTERISK && marker !== 95) return false;
  let count = 0;
  for (let index = position; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code === marker) count += 1;
    else if (code !== 32 && code !== 9) return false;
  }
  return count >= 3;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
