/** One line of a text, without its line break. */
export interface TextLine {
  /** The characters of the line, line break excluded. */
  readonly text: string;
  /** 0-based offset of the line's first character in the whole text. */
  readonly start: number;
  /** 0-based offset just after the line's last character (before its line break). */
  readonly end: number;
}

/**
 * Splits a text into lines, keeping each line's offsets. `\r\n`, `\n` and a lone `\r` each
 * end a line, as in `lineColumnAt`.
 *
 * @param text - any text.
 * @returns the lines in order; an empty text has one empty line.
 */
export function splitLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  const lineBreak = /\r\n|\n|\r/g;
  let start = 0;
  for (let match = lineBreak.exec(text); match !== null; match = lineBreak.exec(text)) {
    lines.push({ text: text.slice(start, match.index), start, end: match.index });
    start = match.index + match[0].length;
  }
  lines.push({ text: text.slice(start), start, end: text.length });
  return lines;
}
