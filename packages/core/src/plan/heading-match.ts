/**
 * Normalises a heading's text for matching against a section name: NFKC, trimmed, without
 * emphasis or code markers (`*`, `` ` ``), without leading numbering (`2.`, `2)`, `1.3`),
 * without a trailing colon, lowercased, with runs of spaces, `_` and `-` read as one space.
 *
 * @param text - the heading's text (plain text or the name as a user wrote it).
 * @returns the normalised form; two headings match when their normalised forms are equal.
 *
 * @example
 * ```ts
 * normalizeHeading("2. **Nice-to-have:**"); // "nice to have"
 * normalizeHeading("RALPH_STATUS"); // "ralph status"
 * ```
 */
export function normalizeHeading(text: string): string {
  // Words of ASCII letters and digits, one space apart, starting with a letter: only the case
  // changes (most headings are such).
  if (plainWords.test(text)) return text.toLowerCase();
  // NFKC leaves ASCII as it is.
  return (ascii.test(text) ? text : text.normalize("NFKC"))
    .replace(/[*`]/g, "")
    .trim()
    .replace(/^\d+(?:\.\d+)*[.)]?\s+/u, "")
    .replace(/\s*:+$/u, "")
    .toLowerCase()
    .replace(/[\s_-]+/gu, " ")
    .trim();
}

const ascii = /^\p{ASCII}*$/u;
const plainWords = /^[A-Za-z][A-Za-z0-9]*(?: [A-Za-z0-9]+)*$/u;

/**
 * Builds a predicate that tells whether a heading's text matches one of `names`, compared
 * by {@link normalizeHeading}.
 *
 * @param names - the section names to recognise.
 * @returns a function of a heading's text, true when it names one of `names`.
 */
export function createHeadingMatcher(names: readonly string[]): (text: string) => boolean {
  const normalized = new Set(names.map(normalizeHeading));
  return (text) => normalized.has(normalizeHeading(text));
}
