import { MAX_TYPO_EDITS, MIN_TYPO_LENGTH, wordSimilarity } from "./word-similarity.js";

const digit = /\d/;

/** A word of the vocabulary that another word matches as a typing error, and how well. */
export interface TypoNeighbour {
  /** The vocabulary's word. */
  readonly word: string;
  /** {@link wordSimilarity} of the two words: above 0, below 1. */
  readonly similarity: number;
}

/** Finds, for any stem, the different words of a vocabulary that it matches as a typo. */
export interface TypoNeighbours {
  /**
   * Every word of the vocabulary other than `word` whose {@link wordSimilarity} with it is
   * above 0, in vocabulary order within each length, shorter lengths first.
   */
  of(word: string): TypoNeighbour[];
}

/**
 * Groups a vocabulary by first letter and length, so that the typos of a word are found among
 * a handful of words rather than all of them, with exactly the words a full scan would find.
 *
 * Why looking in few groups misses nothing: read off {@link wordSimilarity}, two different
 * stems score above 0 only if the longer has at least {@link MIN_TYPO_LENGTH} letters, both
 * start with the same UTF-16 unit, neither has a digit (`\d`) and their lengths differ by at
 * most the allowance, which never exceeds {@link MAX_TYPO_EDITS}. So every such word is in a
 * group of `word`'s first unit with a length within {@link MAX_TYPO_EDITS} of its own, and
 * words with a digit need no group. The groups only narrow the search: each word found is
 * still scored by `wordSimilarity` itself and kept when above 0.
 *
 * @param vocabulary - distinct stems (the words of the tasks).
 */
export function groupTypoNeighbours(vocabulary: Iterable<string>): TypoNeighbours {
  const groups = new Map<string, Map<number, string[]>>();
  for (const word of vocabulary) {
    const first = word[0];
    if (first === undefined || digit.test(word)) continue;
    let byLength = groups.get(first);
    if (byLength === undefined) {
      byLength = new Map();
      groups.set(first, byLength);
    }
    const group = byLength.get(word.length);
    if (group === undefined) byLength.set(word.length, [word]);
    else group.push(word);
  }
  return {
    of(word) {
      const first = word[0];
      const byLength = first === undefined || digit.test(word) ? undefined : groups.get(first);
      if (byLength === undefined) return [];
      const found: TypoNeighbour[] = [];
      const from = Math.max(1, word.length - MAX_TYPO_EDITS);
      for (let length = from; length <= word.length + MAX_TYPO_EDITS; length += 1) {
        if (Math.max(length, word.length) < MIN_TYPO_LENGTH) continue;
        for (const other of byLength.get(length) ?? []) {
          if (other === word) continue;
          const similarity = wordSimilarity(word, other);
          if (similarity > 0) found.push({ word: other, similarity });
        }
      }
      return found;
    },
  };
}
