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

/** Scores are rounded to millionths: a score is `scaled / SCORE_SCALE` for an integer `scaled`. */
export const SCORE_SCALE = 1e6;

/**
 * A mean coverage in millionths, rounded: the integer behind every score (so that 4 of 5 words
 * is exactly 800000, and 0.8 once divided by {@link SCORE_SCALE}).
 *
 * @param sum - the coverage values added up in requirement-word order, from 0.
 * @param wordCount - how many requirement words (> 0).
 */
export function scaledScore(sum: number, wordCount: number): number {
  return Math.round((sum / wordCount) * SCORE_SCALE);
}

/**
 * The mean of a coverage vector, rounded to 6 decimals (so that 4 of 5 words is exactly
 * 0.8); 0 for an empty vector.
 */
export function coverageScore(vector: readonly number[]): number {
  if (vector.length === 0) return 0;
  const sum = vector.reduce((total, value) => total + value, 0);
  return scaledScore(sum, vector.length) / SCORE_SCALE;
}
