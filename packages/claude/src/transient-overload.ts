/**
 * The wordings of a transient API error: an overloaded or busy service that a retry after a
 * short pause gets past. Anthropic says of these, in so many words, that they are not a usage
 * limit.
 */
const TRANSIENT_OVERLOAD_PATTERNS: readonly RegExp[] = [
  /\btemporarily limiting requests\b/i,
  /\b(?:this is|this isn['’]t|that['’]s|it['’]s|is) not (?:your|a) usage limit\b/i,
  /\bisn['’]t your usage limit\b/i,
  /\boverloaded_error\b/i,
  /\bAPI Error:?\s*(?:Repeated\s+)?529\b/i,
  /\bAPI Error:?\s*529\s+Overloaded\b/i,
];

/**
 * Whether an agent's output is a transient overload (HTTP 429/529 "we're temporarily limiting
 * requests (this isn't your usage limit)", `overloaded_error`): an error to retry, not a usage
 * limit to wait out.
 *
 * @param text - the agent's final output.
 * @returns `true` for a transient overload.
 */
export function isTransientOverload(text: string): boolean {
  return TRANSIENT_OVERLOAD_PATTERNS.some((pattern) => pattern.test(text));
}
