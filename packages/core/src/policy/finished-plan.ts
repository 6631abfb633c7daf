import type { ExitCheck } from "./exit-check.js";
import type { ExitPolicyInput } from "./exit-policy-input.js";
import { allRequiredTasksDone } from "./gate-checks.js";

/**
 * What a wrap-up iteration's answer did that keeps a finished plan open, in words: a required
 * task open (one added, or unchecked), files changed, `EXIT_SIGNAL: false`, a concern, a failed
 * verification (an unmet requirement), or no answer at all (the run failed). Empty when it
 * reopened nothing.
 *
 * @param input - the policy's input, its `wrapUp` given.
 */
export function reopenedWork(input: ExitPolicyInput): string[] {
  const wrapUp = input.wrapUp;
  const reasons: string[] = [];
  if (wrapUp === null || wrapUp === undefined) return reasons;
  const open = input.tasks.filter((task) => !task.done && task.optional !== true).length;
  if (wrapUp.tasksAdded > 0) reasons.push(`${plural(wrapUp.tasksAdded, "task")} added`);
  if (open > 0) reasons.push(`${plural(open, "required task")} open`);
  if (wrapUp.filesChanged > 0) reasons.push(`${plural(wrapUp.filesChanged, "file")} changed`);
  if (wrapUp.failed || input.signals === null || input.signals === undefined) {
    reasons.push("the run failed");
  } else if (input.signals.statusBlock?.exitSignal === false) {
    reasons.push("EXIT_SIGNAL: false");
  }
  if (wrapUp.concerns > 0) reasons.push(plural(wrapUp.concerns, "concern"));
  if (input.verification?.passed === false) reasons.push("verification failed");
  return reasons;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The `plan_complete` check: a wrap-up iteration ran on a finished plan (every required task
 * checked) and its answer reopened nothing ({@link reopenedWork}), so the plan is finished
 * though the exit gate did not pass (the agent never wrote `EXIT_SIGNAL: true`, or the
 * completion indicators fell short). Only one wrap-up is spent confirming: a finished plan
 * does not wait for the circuit breaker. Not required (never met) when the last iteration was
 * not such a wrap-up.
 */
export function finishedPlanCheck(input: ExitPolicyInput): Omit<ExitCheck, "name" | "kind"> {
  if (input.wrapUp === null || input.wrapUp === undefined) {
    return {
      value: null,
      threshold: null,
      required: false,
      met: false,
      detail: "no wrap-up iteration on a finished plan",
    };
  }
  const reopened = reopenedWork(input);
  const finished = reopened.length === 0 && allRequiredTasksDone(input.tasks);
  return {
    value: finished,
    threshold: null,
    required: true,
    met: finished,
    detail: finished
      ? "every required task is checked and the wrap-up reopened no work"
      : `the wrap-up reopened work: ${reopened.join(", ")}`,
  };
}
