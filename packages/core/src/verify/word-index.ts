import { groupTypoNeighbours, type TypoNeighbours } from "./typo-neighbours.js";

/** The tasks that say one word, and how well that word matches a requirement word. */
export interface WordMatch {
  /** Positions of the tasks saying the word, ascending. */
  readonly tasks: readonly number[];
  /** {@link wordSimilarity} of the task word and the requirement word, above 0. */
  readonly similarity: number;
}

/** The words of a list of tasks, looked up by the requirement words they match. */
export interface WordIndex {
  /**
   * Every task word whose {@link wordSimilarity} with `word` is above 0 (the word itself
   * first, then its typos), each with the tasks that say it. Remembered per word.
   */
  matchesOf(word: string): readonly WordMatch[];
}

/**
 * Indexes the tasks by word, so that a requirement is compared only with the tasks that say
 * a word matching one of its words: for any other task every coverage value is 0, so its
 * score is 0 and it is no candidate.
 *
 * @param wordLists - for each task, in order, its distinct words (stems).
 * @returns the index; task positions are indexes into `wordLists`.
 */
export function indexWords(wordLists: readonly (readonly string[])[]): WordIndex {
  const postings = new Map<string, number[]>();
  wordLists.forEach((words, position) => {
    for (const word of words) {
      const tasks = postings.get(word);
      if (tasks === undefined) postings.set(word, [position]);
      else tasks.push(position);
    }
  });
  let typos: TypoNeighbours | undefined;
  const remembered = new Map<string, WordMatch[]>();
  return {
    matchesOf(word) {
      const known = remembered.get(word);
      if (known !== undefined) return known;
      typos ??= groupTypoNeighbours(postings.keys());
      const exact = postings.get(word);
      const matches: WordMatch[] = exact === undefined ? [] : [{ tasks: exact, similarity: 1 }];
      for (const typo of typos.of(word)) {
        const tasks = postings.get(typo.word);
        if (tasks !== undefined) matches.push({ tasks, similarity: typo.similarity });
      }
      remembered.set(word, matches);
      return matches;
    },
  };
}
