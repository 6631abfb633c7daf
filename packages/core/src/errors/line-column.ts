/** A 1-based line and column in a text. */
export interface LineColumn {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, counted in UTF-16 code units as JavaScript strings are. */
  readonly column: number;
}

/**
 * Converts a 0-based string offset to a 1-based line and column. `\r\n`, `\n` and a lone
 * `\r` each end a line.
 */
export function lineColumnAt(text: string, offset: number): LineColumn {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 10 || (code === 13 && text.charCodeAt(index + 1) !== 10)) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
