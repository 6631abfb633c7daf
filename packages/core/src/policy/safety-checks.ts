import type { ExitCheck, SafetyCheckName } from "./exit-check.js";
import type { ExitPolicyInput } from "./exit-policy-input.js";
import type { ExitReason } from "./exit-reasons.js";
import { finishedPlanCheck } from "./finished-plan.js";

type SafetyCheck = (input: ExitPolicyInput) => Omit<ExitCheck, "name" | "kind">;

function streak(value: number, threshold: number, what: string): Omit<ExitCheck, "name" | "kind"> {
  return {
    value,
    threshold: threshold > 0 ? threshold : null,
    required: threshold > 0,
    met: threshold > 0 && value >= threshold,
    detail:
      threshold > 0 ? `${value} of ${threshold} ${what} in a row` : `${what} detector disabled (0)`,
  };
}

function flag(value: boolean, detail: string): Omit<ExitCheck, "name" | "kind"> {
  return { value, threshold: null, required: true, met: value, detail };
}

/**
 * The safety exits, in precedence order: when several are met at once, the first names the
 * exit reason. Each ends the loop whatever the gate says.
 */
export const safetyChecks: readonly (readonly [SafetyCheckName & ExitReason, SafetyCheck])[] = [
  [
    "aborted",
    (input) =>
      flag(input.aborted === true, input.aborted ? "aborted by the caller" : "not aborted"),
  ],
  [
    "blocked",
    (input) =>
      flag(
        input.signals?.blocked === true,
        input.signals?.blocked ? "the agent reports BLOCKED" : "not blocked",
      ),
  ],
  ["plan_complete", finishedPlanCheck],
  [
    "prd_complete",
    (input) => {
      const stories = input.stories ?? null;
      const passing = stories?.filter((story) => story.passes).length ?? 0;
      const total = stories?.length ?? 0;
      return {
        value: passing,
        threshold: stories === null ? null : total,
        required: stories !== null && total > 0,
        met: stories !== null && total > 0 && passing === total,
        detail: stories === null ? "no prd.json" : `${passing} of ${total} stories pass`,
      };
    },
  ],
  [
    "needs_input",
    (input) =>
      streak(
        input.counters?.questionOnlyStreak ?? 0,
        input.config.stop_when.question_loops,
        "question-only iterations",
      ),
  ],
  [
    "circuit_open",
    (input) => {
      const state = input.circuit ?? "CLOSED";
      return {
        value: state,
        threshold: null,
        required: true,
        met: state === "OPEN",
        detail: `circuit ${state}`,
      };
    },
  ],
  [
    "test_saturation",
    (input) =>
      streak(
        input.counters?.testOnlyStreak ?? 0,
        input.config.stop_when.test_only_loops,
        "test-only iterations",
      ),
  ],
  [
    "done_signals",
    (input) =>
      streak(
        input.counters?.doneSignalStreak ?? 0,
        input.config.stop_when.done_signals,
        "done signals",
      ),
  ],
  [
    "no_runnable_tasks",
    (input) =>
      flag(
        input.selection?.kind === "none",
        input.selection?.kind === "none" ? "open tasks remain but none can run" : "a task can run",
      ),
  ],
  [
    "budget_exhausted",
    (input) => {
      const cap = input.config.limits.max_cost_usd;
      const cost = input.costUsd ?? 0;
      return {
        value: cost,
        threshold: cap,
        required: cap !== null,
        met: cap !== null && cost >= cap,
        detail:
          cap === null
            ? `cost $${cost.toFixed(2)}, no cap`
            : `cost $${cost.toFixed(2)} of $${cap.toFixed(2)}`,
      };
    },
  ],
  [
    "time_limit",
    (input) => {
      const cap = input.config.limits.max_duration_minutes;
      const minutes = Math.max(0, input.now - input.startedAt) / 60_000;
      return {
        value: Math.round(minutes * 100) / 100,
        threshold: cap,
        required: cap !== null,
        met: cap !== null && minutes >= cap,
        detail:
          cap === null
            ? `${minutes.toFixed(1)} minutes, no limit`
            : `${minutes.toFixed(1)} of ${cap} minutes`,
      };
    },
  ],
  [
    "max_iterations",
    (input) => {
      const cap = input.config.limits.max_iterations;
      return {
        value: input.iterations,
        threshold: cap,
        required: true,
        met: input.iterations >= cap,
        detail: `iteration ${input.iterations} of ${cap}`,
      };
    },
  ],
];
