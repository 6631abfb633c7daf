/**
 * Every reason a loop can stop, as the stable codes written to `decision.log`
 * (`exit_reason`), `loop_state.json`, `status.json` and {@link ExitDecision.reason}.
 * Codes are never renamed; new ones may be added. docs/policy.md explains each.
 *
 * Completion (the exit gate passed, or the plan is finished):
 * - `all_tasks_complete` — the gate passed and every required task is checked.
 * - `exit_signal` — the gate passed on completion indicators and EXIT_SIGNAL with tasks still
 *   open (minimal enforcement, or `require_all_tasks_complete: false`).
 * - `prd_complete` — every prd.json story passes.
 * - `plan_complete` — every required task is checked and a wrap-up iteration confirmed it:
 *   its answer reopened no work (no task added or unchecked, no file changed, no
 *   `EXIT_SIGNAL: false`, no concern, no unmet requirement), though the agent never signalled.
 *
 * Safety exits (whatever the gate says):
 * - `max_iterations`, `budget_exhausted` (`limits.max_cost_usd`, or the shared limits'
 *   budget), `time_limit` (`limits.max_duration_minutes`) — a limit was reached.
 * - `circuit_open` — the circuit breaker opened: no progress, the same error, or repeated
 *   permission denials for too many iterations in a row.
 * - `test_saturation` — `stop_when.test_only_loops` test-only iterations in a row.
 * - `done_signals` — `stop_when.done_signals` done signals in a row, in iterations that
 *   completed no task, without the gate passing.
 * - `needs_input` — the agent only asked questions for several iterations; nobody answers a
 *   headless agent.
 * - `blocked` — the agent reported STATUS: BLOCKED.
 * - `no_runnable_tasks` — open tasks remain but none can run (their attempts are used up or
 *   their dependencies failed).
 * - `usage_limit` — the agent's usage limit was hit and the config says not to wait, or the
 *   limit cannot be lifted by waiting.
 * - `aborted` — the caller's AbortSignal fired (Ctrl+C in the CLI).
 *
 * Errors:
 * - `plan_error`, `config_error`, `state_error` — the plan, config or state could not be used.
 * - `limits_error` — the shared limits (`RunLoopOptions.sharedLimits`) could not be checked:
 *   they kept failing past the engine's retries, or are not a `SharedLimits` of version `v1`.
 * - `error` — any other unexpected error.
 */
export const EXIT_REASONS = Object.freeze([
  "all_tasks_complete",
  "exit_signal",
  "prd_complete",
  "plan_complete",
  "max_iterations",
  "budget_exhausted",
  "time_limit",
  "circuit_open",
  "test_saturation",
  "done_signals",
  "needs_input",
  "blocked",
  "no_runnable_tasks",
  "usage_limit",
  "aborted",
  "plan_error",
  "config_error",
  "state_error",
  "limits_error",
  "error",
] as const);

/** One of the stable exit reason codes in {@link EXIT_REASONS}. */
export type ExitReason = (typeof EXIT_REASONS)[number];

const completionReasons: ReadonlySet<ExitReason> = new Set([
  "all_tasks_complete",
  "exit_signal",
  "prd_complete",
  "plan_complete",
]);

/** Whether `reason` means the work is complete (as opposed to a safety exit or an error). */
export function isCompletionReason(reason: ExitReason): boolean {
  return completionReasons.has(reason);
}

const errorReasons: ReadonlySet<ExitReason> = new Set([
  "plan_error",
  "config_error",
  "state_error",
  "limits_error",
  "error",
]);

/**
 * Whether `reason` means an error stopped the loop (the plan, config or state could not be
 * used, or something failed unexpectedly), as opposed to completion or a safety exit. A
 * `LoopResult` with such a reason carries the `error`.
 */
export function isErrorReason(reason: ExitReason): boolean {
  return errorReasons.has(reason);
}

/** Whether `value` is one of the stable exit reason codes. */
export function isExitReason(value: unknown): value is ExitReason {
  return typeof value === "string" && (EXIT_REASONS as readonly string[]).includes(value);
}
