import type { ExitCheck, ExitDecision, ExitPolicy } from "@loop/core";

/** Options of {@link costPerTaskPolicy}. */
export interface CostPerTaskOptions {
  /** What one task may cost on average, in US dollars (the agent's reported cost). */
  readonly maxUsdPerTask: number;
}

/**
 * The SDK's exit policy, plus a spend rule: stop once the agent has spent more than
 * `maxUsdPerTask` for each checked task. The task in progress gets its allowance before it is
 * done, so the first task may cost `maxUsdPerTask`, two checked tasks allow three times it, and
 * so on. An agent that burns money without checking boxes is stopped long before a flat
 * `limits.max_cost_usd` cap would notice.
 *
 * Every built-in exit is kept, with its reason: the default policy decides first, so a
 * finished plan is reported complete however much it cost, and an abort stays an abort. Exit
 * reasons are a closed set, so the rule reports the closest one, `budget_exhausted`, and says
 * why in that check's `detail`.
 *
 * @example
 * ```ts
 * const result = await runLoop({ plan, executor, store, policy: costPerTaskPolicy({ maxUsdPerTask: 2 }) });
 * ```
 *
 * @param options - the allowance per task.
 * @returns an `ExitPolicy` for `runLoop`'s and `createLoop`'s `policy` option (or the Stop hook's).
 * @throws {RangeError} when `maxUsdPerTask` is not a number above 0.
 */
export function costPerTaskPolicy(options: CostPerTaskOptions): ExitPolicy {
  const { maxUsdPerTask } = options;
  if (!Number.isFinite(maxUsdPerTask) || maxUsdPerTask <= 0) {
    throw new RangeError(`maxUsdPerTask must be a number above 0, got ${maxUsdPerTask}`);
  }
  return (input, defaultPolicy): ExitDecision => {
    const decision = defaultPolicy(input);
    if (decision.exit) return decision;
    const checked = input.tasks.filter((task) => task.done).length;
    const allowance = maxUsdPerTask * (checked + 1);
    const cost = input.costUsd ?? 0;
    if (cost <= allowance) return decision;
    const overspent: ExitCheck = {
      name: "budget_exhausted",
      kind: "safety",
      value: cost,
      threshold: allowance,
      required: true,
      met: true,
      detail: `cost $${cost.toFixed(2)} for ${checked} checked ${checked === 1 ? "task" : "tasks"}: over $${maxUsdPerTask.toFixed(2)} a task`,
    };
    return {
      ...decision,
      exit: true,
      reason: "budget_exhausted",
      checks: decision.checks.map((check) => (check.name === overspent.name ? overspent : check)),
    };
  };
}
