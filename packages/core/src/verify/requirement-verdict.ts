import type { Combination } from "./combine-tasks.js";
import type {
  CompletedTaskInput,
  RequirementInput,
  RequirementMatch,
  TaskCandidate,
} from "./requirement-match.js";

/**
 * The verdict on one requirement from its ranked candidates and, when the best alone falls
 * short of the threshold, the combination found for it.
 *
 * @param requirement - the requirement, as given.
 * @param candidates - every task scoring above 0, best first (ties in input order).
 * @param combination - the tasks meeting it together, or null.
 * @param threshold - the score it must reach to be matched.
 * @returns its {@link RequirementMatch}.
 */
export function toRequirementMatch<
  Requirement extends RequirementInput,
  Task extends CompletedTaskInput,
>(
  requirement: Requirement,
  candidates: readonly TaskCandidate<Task>[],
  combination: Combination<Task> | null,
  threshold: number,
): RequirementMatch<Requirement, Task> {
  const best = candidates[0];
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
