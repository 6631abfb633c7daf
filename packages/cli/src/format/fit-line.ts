/** The escape character that starts an ANSI sequence. */
const ESCAPE = "\u001b";

/** Resets every colour, after a line cut inside a coloured part. */
const resetStyle = `${ESCAPE}[0m`;

/**
 * The length of the ANSI control sequence (`ESC [ … letter`: a colour) starting at `index`,
 * 0 when there is none there.
 */
function sequenceLength(text: string, index: number): number {
  if (text[index] !== ESCAPE || text[index + 1] !== "[") return 0;
  let end = index + 2;
  while (end < text.length && /[0-9;?]/.test(text[end] ?? "")) end += 1;
  return end < text.length && /[A-Za-z]/.test(text[end] ?? "") ? end + 1 - index : 0;
}

/** The pieces of `text`: each character (one column) or ANSI sequence (none). */
function* pieces(text: string): Generator<{ readonly text: string; readonly columns: number }> {
  let index = 0;
  while (index < text.length) {
    const sequence = sequenceLength(text, index);
    if (sequence > 0) {
      yield { text: text.slice(index, index + sequence), columns: 0 };
      index += sequence;
      continue;
    }
    const character = String.fromCodePoint(text.codePointAt(index) ?? 0);
    yield { text: character, columns: 1 };
    index += character.length;
  }
}

/**
 * The columns `text` takes on a terminal, not counting ANSI colour sequences. Each code point
 * counts as one column (East Asian wide characters and emoji, which take two, are undercounted).
 */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const piece of pieces(text)) width += piece.columns;
  return width;
}

/**
 * `text` cut to `width` columns, ending in `…` when it was longer. ANSI colour sequences take
 * no column and are kept; a line cut after one gets a reset so its colour does not run on.
 *
 * @param text - one line, without line breaks.
 * @param width - the columns available (`Infinity`: no limit).
 */
export function fitLine(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  if (width < 1) return "";
  let result = "";
  let columns = 0;
  let styled = false;
  for (const piece of pieces(text)) {
    if (columns + piece.columns > width - 1) break;
    result += piece.text;
    columns += piece.columns;
    if (piece.columns === 0) styled = true;
  }
  return `${result}…${styled ? resetStyle : ""}`;
}

/**
 * `text` made safe for one line of the screen: every run of control characters (line breaks,
 * tabs, escape characters from a log message) becomes one space, so a payload cannot move the
 * cursor or change colours.
 */
export function oneLine(text: string): string {
  return text.replace(/\p{Cc}+/gu, " ").trim();
}
