import { combineTasks, type ScoredTask } from "./combine-tasks.js";
import { type MatchingWords, matchingWords } from "./content-words.js";
import { coverageScore, coverageVector, wordsToCompare } from "./coverage.js";
import type { MatchRequirementsOptions } from "./match-requirements.js";
import type {
  CompletedTaskInput,
  RequirementInput,
  RequirementMatch,
  TaskCandidate,
} from "./requirement-match.js";
import { toRequirementMatch } from "./requirement-verdict.js";
import { resolveMatchOptions } from "./verification-options.js";

// Internal: the all-pairs matcher that `matchRequirements` replaced (issue 15). It scores every
// completed task against every requirement, exactly as `similarity` does, so it is the plain
// statement of what matching means. The identity test and the bench compare the indexed
// matcher with it; the package index does not export it.

function matchOne<Requirement extends RequirementInput, Task extends CompletedTaskInput>(
  requirement: Requirement,
  tasks: readonly { readonly task: Task; readonly words: MatchingWords }[],
  threshold: number,
  maxCombinedTasks: number,
): RequirementMatch<Requirement, Task> {
  const requirementWords = matchingWords(requirement.text);
  const ranked = tasks
    .map(({ task, words }, index): ScoredTask<Task> & { readonly index: number } => {
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
      ? combineTasks(ranked, threshold, maxCombinedTasks)
      : null;
  return toRequirementMatch(requirement, candidates, combination, threshold);
}

/**
 * `matchRequirements` by brute force: every completed task scored against every requirement
 * (O(tasks × requirements) pairs). Same contract and same results as
 * {@link matchRequirements}; kept as the reference the indexed matcher is tested against.
 *
 * @param requirements - the plan's requirements.
 * @param completedTasks - the tasks completed so far (`done: false` ones are left out).
 * @param options - threshold (default 0.8) and combination size (default 2).
 * @returns one {@link RequirementMatch} per requirement, in order.
 * @throws {RangeError} when `threshold` is not in [0, 1] or `maxCombinedTasks` is not an
 * integer ≥ 1.
 */
export function matchRequirementsAllPairs<
  Requirement extends RequirementInput,
  Task extends CompletedTaskInput,
>(
  requirements: readonly Requirement[],
  completedTasks: readonly Task[],
  options?: MatchRequirementsOptions | null,
): RequirementMatch<Requirement, Task>[] {
  const { threshold, maxCombinedTasks } = resolveMatchOptions(options, "matchRequirements");
  const tasks = completedTasks
    .filter((task) => task.done !== false)
    .map((task) => ({ task, words: matchingWords(task.title) }));
  return requirements.map((requirement) =>
    matchOne(requirement, tasks, threshold, maxCombinedTasks),
  );
}
