import { type MatchingWords, matchingWords } from "./content-words.js";
import { coverageScore, coverageVector, wordsToCompare } from "./coverage.js";
import type {
  CompletedTaskInput,
  RequirementInput,
  RequirementMatch,
  TaskCandidate,
} from "./requirement-match.js";
import {
  checkCount,
  checkThreshold,
  DEFAULT_FUZZY_MATCH_THRESHOLD,
  DEFAULT_MAX_COMBINED_TASKS,
} from "./verification-options.js";

/** Options of {@link matchRequirements}. */
export interface MatchRequirementsOptions {
  /**
   * The score a requirement must reach to be matched, from 0 to 1: the config's
   * `verification.fuzzy_match_threshold`. Default 0.8.
   */
  readonly threshold?: number | undefined;
  /**
   * The largest number of completed tasks that may meet one requirement together (see
   * {@link matchRequirements}); 1 turns combining off. Default 2.
   */
  readonly maxCombinedTasks?: number | undefined;
}

/**
 * The least score a task must reach alone to take part in a combination: it must be about the
 * requirement in its own right, not lend it one stray word.
 */
export const MINIMUM_PARTNER_SCORE = 0.5;

/** A candidate with its per-requirement-word coverage. */
interface ScoredTask<Task> {
  readonly task: Task;
  readonly index: number;
  readonly vector: readonly number[];
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
 * raises the combined score most, until the threshold is reached, the size limit is hit or no
 * partner helps. Eligible: scores at least {@link MINIMUM_PARTNER_SCORE} alone, shares a
 * covered word with the combination, and covers a word better than it does.
 */
function combine<Task>(
  ranked: readonly ScoredTask<Task>[],
  threshold: number,
  maxCombinedTasks: number,
): { readonly tasks: Task[]; readonly score: number } | null {
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

function matchOne<Requirement extends RequirementInput, Task extends CompletedTaskInput>(
  requirement: Requirement,
  tasks: readonly { readonly task: Task; readonly words: MatchingWords }[],
  threshold: number,
  maxCombinedTasks: number,
): RequirementMatch<Requirement, Task> {
  const requirementWords = matchingWords(requirement.text);
  const ranked = tasks
    .map(({ task, words }, index): ScoredTask<Task> => {
      const compared = wordsToCompare(requirementWords, words);
      const vector = coverageVector(compared.requirementWords, compared.taskWords);
      return { task, index, vector, score: coverageScore(vector) };
    })
    .filter((scored) => scored.score > 0)
    .sort((left, right) => right.score - left.score || left.index - right.index);
  const candidates: TaskCandidate<Task>[] = ranked.map(({ task, score }) => ({ task, score }));
  const best = ranked[0];
  const combination =
    best !== undefined && best.score < threshold
      ? combine(ranked, threshold, maxCombinedTasks)
      : null;
  const score = combination?.score ?? best?.score ?? 0;
  const matched = (best !== undefined || combination !== null) && score >= threshold;
  return {
    requirement,
    score,
    matched,
    met: matched || requirement.checked === true,
    tasks: combination?.tasks ?? (best === undefined ? [] : [best.task]),
    candidates,
  };
}

/**
 * Matches each requirement to the completed tasks that meet it.
 *
 * Every completed task is scored against every requirement with {@link similarity}
 * (`similarity(task.title, requirement.text)`: the share of the requirement's content words
 * the task says, typo- and inflection-tolerant). A requirement is `matched` when its best task
 * scores at least `threshold`.
 *
 * When no single task reaches the threshold, up to `maxCombinedTasks` tasks may meet it
 * together ("Unit tests cover formatting and localisation" by "Write unit tests for number
 * formatting" and "Write unit tests for localisation"): starting from the best task, partners
 * are added greedily; a partner must score at least 0.5 alone and share a covered requirement
 * word with the tasks already chosen (so two tasks that each cover an unrelated half never
 * combine); the combination scores the mean over the requirement's words of the best
 * coverage any member gives. It is used only if it reaches the threshold.
 *
 * Tasks with `done: false` are left out. A requirement checked in the plan
 * (`checked: true`) is `met` even when not `matched`. Results keep the requirements' order and
 * return the given objects.
 *
 * @param requirements - the plan's requirements (Acceptance Criteria, Success Metrics,
 * Constraints).
 * @param completedTasks - the tasks completed so far.
 * @param options - threshold (default 0.8) and combination size (default 2).
 * @returns one {@link RequirementMatch} per requirement, in order.
 * @throws {RangeError} when `threshold` is not in [0, 1] or `maxCombinedTasks` is not an
 * integer ≥ 1.
 * @example
 * ```ts
 * const [match] = matchRequirements(
 *   [{ text: "Password hashing uses bcrypt" }],
 *   [{ id: "TASK-002", title: "Hash passwords with bcrypt" }],
 * );
 * match.matched; // true
 * match.tasks[0].id; // "TASK-002"
 * ```
 */
export function matchRequirements<
  Requirement extends RequirementInput,
  Task extends CompletedTaskInput,
>(
  requirements: readonly Requirement[],
  completedTasks: readonly Task[],
  options?: MatchRequirementsOptions | null,
): RequirementMatch<Requirement, Task>[] {
  const caller = "matchRequirements";
  const threshold = checkThreshold(options?.threshold ?? DEFAULT_FUZZY_MATCH_THRESHOLD, caller);
  const maxCombinedTasks = checkCount(
    options?.maxCombinedTasks ?? DEFAULT_MAX_COMBINED_TASKS,
    "maxCombinedTasks",
    1,
    caller,
  );
  const tasks = completedTasks
    .filter((task) => task.done !== false)
    .map((task) => ({ task, words: matchingWords(task.title) }));
  return requirements.map((requirement) =>
    matchOne(requirement, tasks, threshold, maxCombinedTasks),
  );
}
