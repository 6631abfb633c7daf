/** The opening line of a fenced code block. */
export interface FenceOpener {
  /** The fence character's code: a backtick or a tilde. */
  readonly marker: number;
  /** How many fence characters open it (3 or more). */
  readonly length: number;
  /** The first word of the info string, or `null`. */
  readonly lang: string | null;
  /** The rest of the info string, or `null`. */
  readonly meta: string | null;
  /** Whether the info string holds what the fast path leaves to micromark (escapes, references, tabs, trailing spaces). */
  readonly unusual: boolean;
}

const BACKTICK = 96;
const TILDE = 126;

/**
 * Reads a code fence opener at `position`, the first character after a line's indentation:
 * three or more backticks or tildes, then an info string (which, after backticks, must not
 * hold a backtick).
 *
 * @param text - the text.
 * @param position - offset of the line's first non-space character.
 * @param end - offset of the line's end.
 * @returns the opener, or `null` when the line does not open a fence.
 */
export function readFenceOpener(text: string, position: number, end: number): FenceOpener | null {
  const marker = text.charCodeAt(position);
  if (marker !== BACKTICK && marker !== TILDE) return null;
  let runEnd = position;
  while (runEnd < end && text.charCodeAt(runEnd) === marker) runEnd += 1;
  if (runEnd - position < 3) return null;
  const info = text.slice(runEnd, end);
  if (marker === BACKTICK && info.includes("`")) return null;
  const trimmed = info.replace(/^ +/u, "");
  const unusual = /[\t\\&]|[ \t]$/u.test(trimmed);
  const space = trimmed.indexOf(" ");
  const lang = space < 0 ? trimmed : trimmed.slice(0, space);
  const meta = space < 0 ? "" : trimmed.slice(space).replace(/^ +/u, "");
  return {
    marker,
    length: runEnd - position,
    lang: lang === "" ? null : lang,
    meta: meta === "" ? null : meta,
    unusual,
  };
}

/**
 * Whether a line closes a fence: at least as many of its fence characters, then only spaces
 * and tabs (the caller checks the indentation, at most 3 spaces).
 *
 * @param text - the text.
 * @param position - offset of the line's first non-space character.
 * @param end - offset of the line's end.
 * @param opener - the fence's opener.
 */
export function closesFence(
  text: string,
  position: number,
  end: number,
  opener: FenceOpener,
): boolean {
  let runEnd = position;
  while (runEnd < end && text.charCodeAt(runEnd) === opener.marker) runEnd += 1;
  if (runEnd - position < opener.length) return false;
  for (let index = runEnd; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 9) return false;
  }
  return true;
}
