import { matchingWords } from "./content-words.js";
import { coverageScore, coverageVector, wordsToCompare } from "./coverage.js";

/**
 * How well a completed task's text covers a requirement, in [0, 1]: the share of the
 * requirement's content words that the task says too, each word counted by how closely the
 * task's best word matches it.
 *
 * Both texts are reduced to their content words ({@link contentWords}: normalised, without
 * stop words and task or requirement filler, stemmed, each once). With R the requirement's
 * words and T the task's:
 *
 * `similarity = (1 / |R|) · Σ_{r ∈ R} max_{t ∈ T} wordSimilarity(r, t)`
 *
 * where `wordSimilarity` is 1 for equal stems and `1 − edits / length` for a typing error
 * within the allowance (none up to 4 letters, 1 edit up to 7, 2 from 8; same first letter;
 * no digits), else 0. Task words that the requirement does not mention are ignored: a task
 * that does more still does the requirement. If the requirement has no content word, all its
 * words (and all the task's) are compared instead; if it has no word at all, the result is 0.
 * The result is rounded to 6 decimals.
 *
 * Not symmetric: `similarity(task, requirement)` asks whether the task says everything the
 * requirement says. "Implement password hashing utility" covers 2 of the 3 content words of
 * "Password hashing uses bcrypt" (`password`, `hash`, not `bcrypt`): 0.67, no match at 0.8,
 * because nothing in the task says bcrypt. The reverse direction scores 0.67 as well, but
 * for a different reason (`util` is missing).
 *
 * @param task - the completed task's title (the text that should cover the requirement).
 * @param requirement - the requirement's text.
 * @returns the coverage of `requirement` by `task`, in [0, 1]; 1 for identical texts with a
 * word in them, 0 when either has no word.
 * @example
 * ```ts
 * similarity("Hash passwords with bcrypt", "Password hashing uses bcrypt"); // 1
 * similarity("Add user authentification via email and pasword",
 *   "User can authenticate with email/password"); // 0.897727
 * similarity("Create login endpoint", "Create user profile page"); // 0
 * ```
 */
export function similarity(task: string, requirement: string): number {
  const { requirementWords, taskWords } = wordsToCompare(
    matchingWords(requirement),
    matchingWords(task),
  );
  return coverageScore(coverageVector(requirementWords, taskWords));
}
