import { matchRequirements } from "./match-requirements.js";
import type {
  CompletedTaskInput,
  RequirementInput,
  RequirementMatch,
} from "./requirement-match.js";
import type { Concern } from "./user-concerns.js";
import {
  DEFAULT_FUZZY_MATCH_THRESHOLD,
  DEFAULT_MAX_COMBINED_TASKS,
} from "./verification-options.js";

/** Input of {@link verifyCompletion}. */
export interface VerifyCompletionInput<
  Requirement extends RequirementInput = RequirementInput,
  Task extends CompletedTaskInput = CompletedTaskInput,
> {
  /** The tasks completed so far (a task with `done: false` is left out). */
  readonly completedTasks: readonly Task[];
  /** The plan's requirements; none means the requirements part passes. */
  readonly requirements: readonly Requirement[];
  /** The user's unresolved concerns, from {@link extractUserConcerns}. Default none. */
  readonly concerns?: readonly Concern[] | undefined;
  /** The config's `verification.fuzzy_match_threshold`, from 0 to 1. Default 0.8. */
  readonly threshold?: number | undefined;
  /** How many tasks may meet one requirement together; 1 turns combining off. Default 2. */
  readonly maxCombinedTasks?: number | undefined;
}

/** The verdict of {@link verifyCompletion}. */
export interface VerificationResult<
  Requirement extends RequirementInput = RequirementInput,
  Task extends CompletedTaskInput = CompletedTaskInput,
> {
  /** Every requirement is met and no concern is unresolved. */
  readonly passed: boolean;
  /** How each requirement fares, in the requirements' order. */
  readonly matches: readonly RequirementMatch<Requirement, Task>[];
  /** The requirements neither matched by completed tasks nor checked in the plan. */
  readonly unmet: readonly Requirement[];
  /** The unresolved concerns that were given; any of them fails verification. */
  readonly concerns: readonly Concern[];
}

/**
 * Practical verification: is the work done as the plan asked, with nothing left that the user
 * complained about?
 *
 * Passes when both hold:
 * - every requirement is met: matched by a completed task (or a combination of tasks) at
 *   `threshold`, or already checked in the plan (`checked: true`, the agent or the user
 *   confirmed it) — see {@link matchRequirements}; no requirements means this part passes;
 * - no concern is given: the caller passes the unresolved ones, from
 *   {@link extractUserConcerns}.
 *
 * @param input - completed tasks, requirements, concerns, threshold.
 * @returns the verdict, the match of every requirement, the unmet ones and the concerns.
 * @throws {RangeError} when `threshold` is not in [0, 1] or `maxCombinedTasks` is not an
 * integer ≥ 1.
 * @example
 * ```ts
 * const { requirements, tasks } = parsePlan(markdown);
 * const result = verifyCompletion({
 *   completedTasks: tasks.filter((task) => task.done),
 *   requirements,
 *   concerns: extractUserConcerns(turns, { lookbackTurns: config.verification.lookback_turns }),
 *   threshold: config.verification.fuzzy_match_threshold,
 * });
 * if (!result.passed) console.log(result.unmet.map((requirement) => requirement.text));
 * ```
 */
export function verifyCompletion<
  Requirement extends RequirementInput,
  Task extends CompletedTaskInput,
>(input: VerifyCompletionInput<Requirement, Task>): VerificationResult<Requirement, Task> {
  const matches = matchRequirements(input.requirements, input.completedTasks, {
    threshold: input.threshold ?? DEFAULT_FUZZY_MATCH_THRESHOLD,
    maxCombinedTasks: input.maxCombinedTasks ?? DEFAULT_MAX_COMBINED_TASKS,
  });
  const unmet = matches.filter((match) => !match.met).map((match) => match.requirement);
  const concerns = [...(input.concerns ?? [])];
  return { passed: unmet.length === 0 && concerns.length === 0, matches, unmet, concerns };
}
