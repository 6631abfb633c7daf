import { type MatchingWords, matchingWords } from "./content-words.js";
import { stem } from "./stem.js";

/**
 * {@link matchingWords} that remembers: each distinct text is normalised and split once, and
 * each distinct word stemmed once, however many tasks or requirements repeat them. For one
 * matching call; drop it afterwards.
 *
 * @returns a function giving the matching words of a text.
 */
export function rememberMatchingWords(): (text: string) => MatchingWords {
  const stems = new Map<string, string>();
  const stemOnce = (word: string): string => {
    const known = stems.get(word);
    if (known !== undefined) return known;
    const wordStem = stem(word);
    stems.set(word, wordStem);
    return wordStem;
  };
  const texts = new Map<string, MatchingWords>();
  return (text) => {
    const known = texts.get(text);
    if (known !== undefined) return known;
    const words = matchingWords(text, stemOnce);
    texts.set(text, words);
    return words;
  };
}
