import { coverageScore } from "./coverage.js";

/**
 * The least score a task must reach alone to take part in a combination: it must be about the
 * requirement in its own right, not lend it one stray word.
 */
export const MINIMUM_PARTNER_SCORE = 0.5;

/** A task ranked against one requirement, with its coverage of each requirement word. */
export interface ScoredTask<Task> {
  /** The task, as given. */
  readonly task: Task;
  /** For each requirement word, how well the task's best word matches it. */
  readonly vector: readonly number[];
  /** The task's score alone: the mean of `vector`, rounded. */
  readonly score: number;
}

/** Tasks that meet a requirement together, best first, and their combined score. */
export interface Combination<Task> {
  /** The combined tasks, in the order they were chosen (the best task first). */
  readonly tasks: Task[];
  /** The mean over the requirement's words of the best coverage any member gives. */
  readonly score: number;
}

function union(left: readonly number[], right: readonly number[]): number[] {
  return left.map((value, index) => Math.max(value, right[index] ?? 0));
}

/** Whether both cover some requirement word (they are about the same thing). */
function shareAWord(left: readonly number[], right: readonly number[]): boolean {
  return left.some((value, index) => value > 0 && (right[index] ?? 0) > 0);
}

/**
 * Greedily grows a combination from the best task: each step adds the eligible partner that
 * raises the combined score most (the first in rank order on a tie), until the threshold is
 * reached, the size limit is hit or no partner helps. Eligible: scores at least
 * {@link MINIMUM_PARTNER_SCORE} alone, shares a covered word with the combination, and covers
 * a word better than it does.
 *
 * @param ranked - the tasks best first; only the first and those scoring at least
 * {@link MINIMUM_PARTNER_SCORE} are read, so a caller may leave the others out.
 * @param threshold - the score the combination must reach.
 * @param maxCombinedTasks - the largest number of tasks combined.
 * @returns the combination when it has two tasks or more and reaches the threshold, else null.
 */
export function combineTasks<Task>(
  ranked: readonly ScoredTask<Task>[],
  threshold: number,
  maxCombinedTasks: number,
): Combination<Task> | null {
  const [best] = ranked;
  if (best === undefined) return null;
  const members = [best];
  let vector: readonly number[] = best.vector;
  let score = best.score;
  while (members.length < maxCombinedTasks && score < threshold) {
    let chosen: { partner: ScoredTask<Task>; vector: number[]; score: number } | null = null;
    for (const partner of ranked) {
      if (members.includes(partner) || partner.score < MINIMUM_PARTNER_SCORE) continue;
      if (!shareAWord(vector, partner.vector)) continue;
      const combined = union(vector, partner.vector);
      const combinedScore = coverageScore(combined);
      if (combinedScore > (chosen?.score ?? score)) {
        chosen = { partner, vector: combined, score: combinedScore };
      }
    }
    if (chosen === null) break;
    members.push(chosen.partner);
    vector = chosen.vector;
    score = chosen.score;
  }
  return score >= threshold && members.length > 1
    ? { tasks: members.map((member) => member.task), score }
    : null;
}
