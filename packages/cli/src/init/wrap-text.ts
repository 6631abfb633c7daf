/**
 * Breaks `text` into lines of at most `width` characters at spaces (a longer word gets a line
 * of its own). Runs of whitespace count as one space.
 *
 * @param text - the text to wrap.
 * @param width - the longest line wanted, at least 1.
 * @returns the lines, at least one (an empty string for empty text).
 */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((item) => item !== "")) {
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines;
}
