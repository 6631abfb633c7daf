import type { LineColumn } from "../errors/line-column.js";

/**
 * Builds a function that converts 0-based offsets of a text to 1-based lines and columns,
 * as `lineColumnAt` does (`\r\n`, `\n` and a lone `\r` each end a line), in logarithmic time
 * per offset after one linear pass: a block with thousands of problems is located in linear
 * time, where calling `lineColumnAt` for each would be quadratic.
 *
 * @param text - the text the offsets point into.
 * @param firstLine - the 1-based line number of the text's first line (for a part of a text).
 * @returns the converter.
 */
export function createLineLocator(text: string, firstLine = 1): (offset: number) => LineColumn {
  const lineStarts = [0];
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 10 || (code === 13 && text.charCodeAt(index + 1) !== 10)) {
      lineStarts.push(index + 1);
    }
  }
  return (offset) => {
    const at = Math.max(0, Math.min(offset, text.length));
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((lineStarts[middle] ?? 0) <= at) low = middle;
      else high = middle - 1;
    }
    return { line: firstLine + low, column: at - (lineStarts[low] ?? 0) + 1 };
  };
}
