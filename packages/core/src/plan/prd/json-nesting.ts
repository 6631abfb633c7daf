import { stringEnd } from "./json-string-end.js";

/**
 * How deep objects and arrays may nest in a prd.json. Real ones nest about 4 levels; the
 * limit keeps a hostile document from exhausting the parser's stack.
 */
export const maximumJsonNesting = 256;

const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The offset of the first `{` or `[` (outside strings) that opens a level deeper than
 * `limit`, or `-1` when the text nests no deeper. Works on any text, valid JSON or not.
 */
export function excessiveNestingOffset(text: string, limit: number): number {
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = stringEnd(text, index);
      if (index < 0) return -1;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return index;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth = Math.max(0, depth - 1);
    }
  }
  return -1;
}
