import type { ExitCheck } from "./exit-check.js";
import type { ExitPolicyInput } from "./exit-policy-input.js";
import { resolveExitSignal } from "./exit-signal.js";

/** Whether every task that is not optional is done. */
export function allRequiredTasksDone(tasks: ExitPolicyInput["tasks"]): boolean {
  return tasks.every((task) => task.done || task.optional === true);
}

/**
 * The seed's exit gate (loop-code), AND logic: completion indicators ≥
 * `min_completion_indicators` always; EXIT_SIGNAL if `require_exit_signal`; all tasks complete
 * if `require_all_tasks_complete` and verification passed if `require_verification_pass`, these
 * two under full enforcement only (`enforcement.enabled: false` keeps indicators + EXIT_SIGNAL).
 */
export function gateChecks(input: ExitPolicyInput): ExitCheck[] {
  const policy = input.config.exit_policy;
  const full = input.config.enforcement.enabled;
  const minimum = policy.min_completion_indicators;
  const exitSignal = resolveExitSignal(input.planStatus, input.signals);
  const openRequired = input.tasks.filter((task) => !task.done && task.optional !== true).length;
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
      detail: `EXIT_SIGNAL is ${exitSignal.value}${exitSignal.source ? ` (from ${exitSignal.source.replace("_", " ")})` : " (not given)"}`,
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
