import type { MatchingWords } from "./content-words.js";
import { wordSimilarity } from "./word-similarity.js";

/**
 * The words of a requirement and of a task to compare: the content words, or every word of
 * both when the requirement has no content word at all (a requirement made only of stop words
 * and filler, such as "It should work", is still compared on what it says).
 */
export function wordsToCompare(
  requirement: MatchingWords,
  task: MatchingWords,
): { readonly requirementWords: readonly string[]; readonly taskWords: readonly string[] } {
  return requirement.content.length > 0
    ? { requirementWords: requirement.content, taskWords: task.content }
    : { requirementWords: requirement.all, taskWords: task.all };
}

/**
 * For each requirement word, how well the best task word matches it ({@link wordSimilarity}).
 *
 * @param requirementWords - the requirement's stems.
 * @param taskWords - the task's stems.
 * @returns one value in [0, 1] per requirement word.
 */
export function coverageVector(
  requirementWords: readonly string[],
  taskWords: readonly string[],
): number[] {
  return requirementWords.map((requirementWord) => {
    let best = 0;
    for (const taskWord of taskWords) {
      best = Math.max(best, wordSimilarity(requirementWord, taskWord));
      if (best === 1) break;
    }
    return best;
  });
}

/**
 * The mean of a coverage vector, rounded to 6 decimals (so that 4 of 5 words is exactly
 * 0.8); 0 for an empty vector.
 */
export function coverageScore(vector: readonly number[]): number {
  if (vector.length === 0) return 0;
  const sum = vector.reduce((total, value) => total + value, 0);
  return Math.round((sum / vector.length) * 1e6) / 1e6;
}
