/** The conditions of the seed's AND-ed exit gate. */
export type GateCheckName =
  | "completion_indicators"
  | "exit_signal"
  | "all_tasks_complete"
  | "verification_passed";

/**
 * The safety exits, and the finished-plan completion (`plan_complete`); each name is also the
 * exit reason it gives.
 */
export type SafetyCheckName =
  | "aborted"
  | "prd_complete"
  | "plan_complete"
  | "blocked"
  | "needs_input"
  | "circuit_open"
  | "test_saturation"
  | "done_signals"
  | "no_runnable_tasks"
  | "budget_exhausted"
  | "time_limit"
  | "max_iterations";

/** The names of the conditions {@link shouldExit} evaluates. */
export type ExitCheckName = GateCheckName | SafetyCheckName;

/**
 * One condition of the exit decision, with everything needed to print why the loop goes on.
 *
 * - A `gate` check is one of the seed's AND-ed exit conditions: the gate passes when every
 *   `required` gate check is `met`.
 * - A `safety` check ends the loop on its own when it is `required` (enabled by the config) and
 *   `met` (its limit is reached), whatever the gate says. `prd_complete` and `plan_complete`
 *   are of this kind though their reasons are completion reasons.
 */
export interface ExitCheck {
  /** Which condition. */
  readonly name: ExitCheckName;
  /** `gate` (AND-ed) or `safety` (ends the loop on its own). */
  readonly kind: "gate" | "safety";
  /** The current value (a count, an amount, a flag or a state). */
  readonly value: number | boolean | string | null;
  /** What the value is compared with; `null` when the condition is a plain flag or disabled. */
  readonly threshold: number | boolean | null;
  /** Whether the config enables this condition. A condition that is not required never counts. */
  readonly required: boolean;
  /** Whether the condition holds (gate) or its limit is reached (safety). */
  readonly met: boolean;
  /** One line for people: the condition with its value and threshold. */
  readonly detail: string;
}
