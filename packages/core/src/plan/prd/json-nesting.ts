/**
 * How deep objects and arrays may nest in a prd.json. Real ones nest about 4 levels; the
 * limit keeps a hostile document from exhausting the parser's stack.
 */
export const maximumJsonNesting = 256;

/**
 * The offset of the first `{` or `[` (outside strings) that opens a level deeper than
 * `limit`, or `-1` when the text nests no deeper. Works on any text, valid JSON or not.
 */
export function excessiveNestingOffset(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text.charAt(index);
    if (inString) {
      if (character === "\\") index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') {
      inString = true;
    } else if (character === "{" || character === "[") {
      depth += 1;
      if (depth > limit) return index;
    } else if (character === "}" || character === "]") {
      depth = Math.max(0, depth - 1);
    }
  }
  return -1;
}
