import type { ExitCheck } from "./exit-check.js";
import type { ExitPolicyInput } from "./exit-policy-input.js";
import type { ExitReason } from "./exit-reasons.js";
import { allRequiredTasksDone, gateChecks } from "./gate-checks.js";
import { safetyChecks } from "./safety-checks.js";

/** The exit decision, with every condition behind it. */
export interface ExitDecision {
  /** Whether the loop stops now. */
  readonly exit: boolean;
  /** Why it stops; `null` when it goes on. */
  readonly reason: ExitReason | null;
  /** Whether the AND-gate of the seed's exit policy passed. */
  readonly gatePassed: boolean;
  /** Every condition evaluated: the gate's four, then the safety exits in precedence order. */
  readonly checks: readonly ExitCheck[];
}

/**
 * Decides whether the loop stops after an iteration. Pure: plain data in, plain data out, the
 * clock passed in as `now`; it never throws on well-typed input.
 *
 * Order of precedence:
 * 1. `aborted` — the caller asked to stop;
 * 2. `blocked` — the agent reports it cannot go on; work it calls blocked is never reported as
 *    complete, even when it also sets EXIT_SIGNAL to bail out;
 * 3. the exit gate (AND of every required gate check) — `all_tasks_complete` when every
 *    required task is done, otherwise `exit_signal` (minimal enforcement, or
 *    `require_all_tasks_complete: false`);
 * 4. the other safety exits, each on its own whatever the gate says, in this order:
 *    `prd_complete`, `needs_input`, `circuit_open`, `test_saturation`, `done_signals`,
 *    `no_runnable_tasks`, `budget_exhausted`, `time_limit`, `max_iterations`.
 *
 * Every limit exits at its threshold: with `max_iterations: 20`, iteration 19 goes on and 20
 * exits. A `stop_when` detector set to 0 is disabled. Raising a threshold never makes the loop
 * exit earlier.
 *
 * @example
 * ```ts
 * const decision = shouldExit({ config, tasks: plan.tasks, planStatus: plan.status, signals,
 *   iterations: 3, completionIndicators: 2, startedAt, now: clock.now() });
 * if (!decision.exit) {
 *   for (const check of decision.checks) if (check.required && !check.met) console.log(check.detail);
 * }
 * ```
 */
export function shouldExit(input: ExitPolicyInput): ExitDecision {
  const gate = gateChecks(input);
  const safety = safetyChecks.map(([name, check]) => ({
    name,
    kind: "safety" as const,
    ...check(input),
  }));
  const checks: ExitCheck[] = [...gate, ...safety];
  const gatePassed = gate.every((check) => !check.required || check.met);
  const triggered = safety
    .filter((check) => check.required && check.met)
    .map((check) => check.name);

  let reason: ExitReason | null = null;
  if (triggered[0] === "aborted" || triggered[0] === "blocked") {
    reason = triggered[0];
  } else if (gatePassed) {
    reason = allRequiredTasksDone(input.tasks) ? "all_tasks_complete" : "exit_signal";
  } else {
    reason = triggered[0] ?? null;
  }
  return { exit: reason !== null, reason, gatePassed, checks };
}
