/**
 * Whether a line is blank as markdown means it: empty or only spaces and tabs. Not
 * `String#trim`, which also strips a byte order mark, a no-break space and other Unicode
 * whitespace: a line holding one of those is not blank, so it does not end an HTML block or
 * a paragraph.
 *
 * @param text - the line, without its line ending.
 * @returns whether the line is blank.
 */
export function isBlankLine(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code !== 0x20 && code !== 0x09) return false;
  }
  return true;
}
