import { combineTasks, MINIMUM_PARTNER_SCORE, type ScoredTask } from "./combine-tasks.js";
import type { MatchingWords } from "./content-words.js";
import { coverageVector, wordsToCompare } from "./coverage.js";
import { createMatchContext, type MatchContext } from "./match-context.js";
import { rankByScore } from "./rank-by-score.js";
import type {
  CompletedTaskInput,
  RequirementInput,
  RequirementMatch,
  TaskCandidate,
} from "./requirement-match.js";
import { toRequirementMatch } from "./requirement-verdict.js";
import { resolveMatchOptions } from "./verification-options.js";

const NO_WORDS: MatchingWords = { content: [], all: [] };

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
 * The best task and every task that may partner it (scoring at least
 * {@link MINIMUM_PARTNER_SCORE}), best first, with their coverage vectors.
 */
function partnersOf<Task extends CompletedTaskInput>(
  context: MatchContext<Task>,
  requirementWords: MatchingWords,
  candidates: readonly TaskCandidate<Task>[],
  ranked: Int32Array,
): ScoredTask<Task>[] {
  const scored: ScoredTask<Task>[] = [];
  for (const [rank, candidate] of candidates.entries()) {
    if (rank > 0 && candidate.score < MINIMUM_PARTNER_SCORE) break;
    const taskWords = context.taskWords[context.sums.positions[ranked[rank] ?? 0] ?? 0];
    const compared = wordsToCompare(requirementWords, taskWords ?? NO_WORDS);
    const vector = coverageVector(compared.requirementWords, compared.taskWords);
    scored.push({ task: candidate.task, vector, score: candidate.score });
  }
  return scored;
}

function matchOne<Requirement extends RequirementInput, Task extends CompletedTaskInput>(
  requirement: Requirement,
  context: MatchContext<Task>,
): RequirementMatch<Requirement, Task> {
  const { sums, pool } = context;
  const { threshold, maxCombinedTasks } = context.settings;
  const words = context.wordsOf(requirement.text);
  // As wordsToCompare: the content words, or all words when there are none.
  const useContent = words.content.length > 0;
  const requirementWords = useContent ? words.content : words.all;
  if (requirementWords.length === 0) return toRequirementMatch(requirement, [], null, threshold);
  const index = useContent ? context.contentIndex : context.allIndex();
  sums.fill(requirementWords.map((word) => index.matchesOf(word)));
  const ranked = rankByScore(sums.scaled, sums.scoredCount, context.ranking);
  const candidates = pool.candidatesOf(ranked, sums.positions, sums.scaled);
  const best = candidates[0];
  const combination =
    best !== undefined && best.score < threshold && maxCombinedTasks > 1
      ? combineTasks(partnersOf(context, words, candidates, ranked), threshold, maxCombinedTasks)
      : null;
  return toRequirementMatch(requirement, candidates, combination, threshold);
}

/**
 * Matches each requirement to the completed tasks that meet it.
 *
 * Every completed task is scored against every requirement as {@link similarity} scores it
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
 * return the given objects; candidate objects are frozen, and one task with one score may be
 * the same object in several requirements' candidates.
 *
 * Cost: each text is read once; the tasks are indexed by word, so a requirement is compared
 * only with the tasks that say one of its words or a typo of one (any other task scores 0, so
 * the result is the same). The time grows with the texts and with the number of candidates
 * returned (the pairs scoring above 0), not with tasks × requirements.
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
  const settings = resolveMatchOptions(options, "matchRequirements");
  const context = createMatchContext(completedTasks, settings);
  return requirements.map((requirement) => matchOne(requirement, context));
}
