/** A sentence's place in a text: `text.slice(start, end)`. */
export interface SentenceSpan {
  /** Index of its first character. */
  readonly start: number;
  /** Index after its last character (its final `.`, `!` or `?` included). */
  readonly end: number;
}

/**
 * Splits a text into sentences: a sentence ends at a run of `.`, `!` or `?` followed by
 * white space or the end of the text, and at every line break. Blank sentences are dropped;
 * spans are trimmed.
 *
 * @param text - the text (usually with quoted parts blanked, see {@link maskQuotedText}).
 * @returns the sentences' spans, in order.
 */
export function splitSentences(text: string): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  const boundary = /[.!?]+(?=\s|$)|\r?\n/g;
  let start = 0;
  const push = (end: number) => {
    const piece = text.slice(start, end);
    const leading = piece.length - piece.trimStart().length;
    const trimmed = piece.trim();
    if (trimmed !== "")
      spans.push({ start: start + leading, end: start + leading + trimmed.length });
  };
  for (const match of text.matchAll(boundary)) {
    const end =
      match[0].startsWith("\n") || match[0].startsWith("\r")
        ? match.index
        : match.index + match[0].length;
    push(end);
    start = match.index + match[0].length;
  }
  push(text.length);
  return spans;
}
