import type { ExitCheck } from "./exit-check.js";
import type { ExitPolicyInput } from "./exit-policy-input.js";
import { type ResolvedExitSignal, resolveExitSignal } from "./exit-signal.js";

/** Whether every task that is not optional is done. */
export function allRequiredTasksDone(tasks: ExitPolicyInput["tasks"]): boolean {
  return tasks.every((task) => task.done || task.optional === true);
}

/**
 * The seed's exit gate (loop-code), AND logic: completion indicators ≥
 * `min_completion_indicators` always; EXIT_SIGNAL if `require_exit_signal`; all tasks complete
 * if `require_all_tasks_complete` and verification passed if `require_verification_pass`, these
 * two under full enforcement only (`enforcement.enabled: false` keeps indicators + EXIT_SIGNAL).
 *
 * EXIT_SIGNAL is {@link resolveExitSignal}'s, with one exception: when every required task is
 * checked and the agent's status block wrote `EXIT_SIGNAL: true` in this answer and the one
 * before (`counters.exitSignalStreak` ≥ 2), it is `true` though `STATUS: IN_PROGRESS`
 * contradicted it — an explicit, repeated signal on a finished plan is the agent's word. A
 * single such answer, or one with a task open, still does not end the loop.
 */
export function gateChecks(input: ExitPolicyInput): ExitCheck[] {
  const policy = input.config.exit_policy;
  const full = input.config.enforcement.enabled;
  const minimum = policy.min_completion_indicators;
  const openRequired = input.tasks.filter((task) => !task.done && task.optional !== true).length;
  const exitSignal = gateExitSignal(input, openRequired === 0);
  const verificationRequired = full && policy.require_verification_pass;
  const verificationPassed = input.verification?.passed === true;
  const ignored = full ? "" : " (ignored: minimal enforcement)";
  return [
    {
      name: "completion_indicators",
      kind: "gate",
      value: input.completionIndicators,
      threshold: minimum,
      required: true,
      met: input.completionIndicators >= minimum,
      detail: `completion indicators ${input.completionIndicators} of ${minimum} needed`,
    },
    {
      name: "exit_signal",
      kind: "gate",
      value: exitSignal.value,
      threshold: true,
      required: policy.require_exit_signal,
      met: exitSignal.value,
      detail: `EXIT_SIGNAL is ${exitSignal.value}${exitSignal.source ? ` (from ${exitSignal.source.replace("_", " ")})` : " (not given)"}${exitSignal.repeated ? `, written ${exitSignal.repeated} answers in a row with every task checked: STATUS: IN_PROGRESS overruled` : ""}`,
    },
    {
      name: "all_tasks_complete",
      kind: "gate",
      value: openRequired,
      threshold: 0,
      required: full && policy.require_all_tasks_complete,
      met: openRequired === 0,
      detail: `${openRequired} required task${openRequired === 1 ? "" : "s"} open${full ? "" : ignored}`,
    },
    {
      name: "verification_passed",
      kind: "gate",
      value: input.verification ? verificationPassed : null,
      threshold: true,
      required: verificationRequired,
      met: verificationPassed,
      detail: `verification ${input.verification ? (verificationPassed ? "passed" : "failed") : "has not run"}${full ? "" : ignored}`,
    },
  ];
}

/** EXIT_SIGNAL as the gate reads it; `repeated` is the streak that overruled a contradiction. */
function gateExitSignal(
  input: ExitPolicyInput,
  finished: boolean,
): ResolvedExitSignal & { readonly repeated: number | null } {
  const resolved = resolveExitSignal(input.planStatus, input.signals);
  const streak = input.counters?.exitSignalStreak ?? 0;
  const written = input.signals?.statusBlock?.exitSignal === true;
  if (resolved.value || !finished || !written || streak < 2) return { ...resolved, repeated: null };
  return { value: true, source: "status_block", repeated: streak };
}
