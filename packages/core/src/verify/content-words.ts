import { normalizeText } from "./normalize-text.js";
import { stem } from "./stem.js";
import { FILLER_WORDS, STOP_WORDS } from "./stop-words.js";

const fillerWords: ReadonlySet<string> = new Set(FILLER_WORDS);
const fillerStems: ReadonlySet<string> = new Set(FILLER_WORDS.map(stem));

/** The words of a text as matching sees them. */
export interface MatchingWords {
  /** Distinct stems of the content words, in order of first appearance. */
  readonly content: readonly string[];
  /** Distinct stems of every word, stop words and filler included (the fallback). */
  readonly all: readonly string[];
}

/** Whether a word (before stemming) or its stem is a stop word or filler. */
function isContentWord(word: string, wordStem: string): boolean {
  return !STOP_WORDS.has(word) && !fillerWords.has(word) && !fillerStems.has(wordStem);
}

/**
 * Splits a text into the stems {@link similarity} compares: normalised
 * ({@link normalizeText}), split on spaces, stemmed ({@link stem}), duplicates removed;
 * `content` also leaves out stop words and filler.
 *
 * @param text - a task title or requirement.
 * @param stemWord - the stemmer ({@link stem}, or one that remembers its answers).
 * @returns the content stems and all stems.
 */
export function matchingWords(
  text: string,
  stemWord: (word: string) => string = stem,
): MatchingWords {
  const content = new Set<string>();
  const all = new Set<string>();
  const normalized = normalizeText(text);
  for (const word of normalized === "" ? [] : normalized.split(" ")) {
    const wordStem = stemWord(word);
    all.add(wordStem);
    if (isContentWord(word, wordStem)) content.add(wordStem);
  }
  return { content: [...content], all: [...all] };
}

/**
 * The content words of a text, as fuzzy requirement matching compares them: normalised
 * (lowercase, accents and punctuation removed, "log in" → `login`, "User can …" dropped),
 * without stop words ("the", "for", "can", …) and task or requirement filler ("implement",
 * "add", "write", "support", "uses", …), stemmed, each once. Use it to see why two sentences
 * do or do not match.
 *
 * @param text - a task title or requirement.
 * @returns the distinct content stems, in order of first appearance.
 * @example
 * ```ts
 * contentWords("Implement password hashing utility"); // ["password", "hash", "util"]
 * contentWords("User can authenticate with email/password"); // ["authentic", "email", "password"]
 * ```
 */
export function contentWords(text: string): string[] {
  return [...matchingWords(text).content];
}
