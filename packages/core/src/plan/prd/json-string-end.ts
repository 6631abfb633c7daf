const BACKSLASH = 0x5c;

/**
 * The offset of the quote that closes the string opened by the quote at `start`: the next
 * quote that an odd run of backslashes does not escape (`"a\"b"`, `"a\\"`); `-1` when the
 * string is never closed. A backslash escapes the character after it, whatever it is.
 *
 * @param text - any text.
 * @param start - the offset of the opening quote.
 */
export function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote >= 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}
