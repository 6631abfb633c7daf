import type { Nodes } from "mdast";

/** A position's point: 1-based line and column, 0-based offset. */
export type Point = NonNullable<Nodes["position"]>["start"];

/**
 * The lines of a text, as markdown counts them: each line ending (`\r\n`, `\n` or a lone
 * `\r`) ends a line, and the text after the last one (possibly empty) is the last line.
 */
export interface LineTable {
  /** The text. */
  readonly text: string;
  /** How many lines the text has (at least 1). */
  readonly count: number;
  /** The offset of each line's first character. */
  readonly starts: Int32Array;
  /** The offset just after each line's content, before its line ending. */
  readonly ends: Int32Array;
}

/**
 * Splits a text into lines. The offsets are kept in typed arrays: a large text's are stored
 * outside the garbage-collected heap, which then need not copy them.
 *
 * @param text - the text.
 * @returns where each line starts and ends.
 */
export function lineTable(text: string): LineTable {
  const length = text.length;
  const carriageReturns = text.includes("\r");
  let count = 1;
  if (carriageReturns) {
    for (let index = 0; index < length; index += 1) {
      const code = text.charCodeAt(index);
      if (code === 10 || (code === 13 && text.charCodeAt(index + 1) !== 10)) count += 1;
    }
  } else {
    for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) {
      count += 1;
    }
  }
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  let line = 0;
  if (carriageReturns) {
    for (let index = 0; index < length; index += 1) {
      const code = text.charCodeAt(index);
      if (code !== 10 && code !== 13) continue;
      ends[line] = index;
      if (code === 13 && text.charCodeAt(index + 1) === 10) index += 1;
      line += 1;
      starts[line] = index + 1;
    }
  } else {
    for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) {
      ends[line] = index;
      line += 1;
      starts[line] = index + 1;
    }
  }
  ends[line] = length;
  return { text, count, starts, ends };
}

/**
 * The point of an offset on a known line.
 *
 * @param lines - the text's lines.
 * @param line - the 0-based line the offset is on.
 * @param offset - the offset.
 * @returns the 1-based line and column (in UTF-16 code units) and the offset.
 */
export function pointAt(lines: LineTable, line: number, offset: number): Point {
  return { line: line + 1, column: offset - (lines.starts[line] ?? 0) + 1, offset };
}
