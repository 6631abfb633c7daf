import type { ExitCheck, ExitReason, LoopConfig, LoopState } from "@loop/core";
import { circuitAdvice } from "./circuit-advice.js";
import { formatUtcClock, readTime } from "./format-clock.js";
import { formatCost } from "./format-cost.js";
import { plural } from "./plural.js";

/** What {@link exitAdvice} reads. */
export interface ExitAdviceInput {
  /** Why the loop stopped. */
  readonly reason: ExitReason;
  /** The loop's state now: after the exit, or later (`loop status`, perhaps after a reset). */
  readonly state: LoopState | null;
  /** The config (file and defaults); the checks' thresholds win where they are known. */
  readonly config: LoopConfig;
  /** The exit decision's checks, when known (a run's result): the limits it really used. */
  readonly checks?: readonly ExitCheck[] | null | undefined;
  /** The current time, epoch milliseconds. */
  readonly now: number;
}

type Advice = (input: ExitAdviceInput, state: LoopState) => string[];

/** The value and threshold of the decision's check `name`, when it has numbers. */
function checkNumbers(
  input: ExitAdviceInput,
  name: string,
): { value: number | null; threshold: number | null } {
  const check = input.checks?.find((entry) => entry.name === name);
  return {
    value: typeof check?.value === "number" ? check.value : null,
    threshold: typeof check?.threshold === "number" ? check.threshold : null,
  };
}

/** What the agent said, indented under the advice: its reason, questions and recommendation. */
function agentLines(state: LoopState, withReason: boolean): string[] {
  const report = state.run?.agent_report;
  if (report === undefined) return [];
  const lines: string[] = [];
  if (withReason && report.reason !== null) lines.push(`the agent: ${report.reason}`);
  for (const question of report.questions) lines.push(`asked: ${question}`);
  if (report.recommendation !== null) lines.push(`recommendation: ${report.recommendation}`);
  return lines;
}

const maxIterations: Advice = (input, state) => {
  const numbers = checkNumbers(input, "max_iterations");
  const cap = numbers.threshold ?? input.config.limits.max_iterations;
  const used = state.loop_metadata.iterations;
  if (used < cap)
    return [`iterations were reset since (${used} of ${cap} used): \`loop run\` goes on`];
  return [
    `${used} of ${cap} iterations used over all runs; raise limits.max_iterations (or pass --max-iterations) or run \`loop reset\``,
  ];
};

const budgetExhausted: Advice = (input, state) => {
  const numbers = checkNumbers(input, "budget_exhausted");
  const cap = numbers.threshold ?? input.config.limits.max_cost_usd;
  const cost = state.cost_usd ?? 0;
  if (cap === null || cost < cap) {
    return [`the cost was reset since (${formatCost(cost)} counted): \`loop run\` goes on`];
  }
  return [
    `${formatCost(cost)} of the ${formatCost(cap)} budget spent over all runs; raise limits.max_cost_usd (or pass --max-cost), or run \`loop reset --cost\` to count from $0`,
  ];
};

const timeLimit: Advice = (input) => {
  const cap =
    checkNumbers(input, "time_limit").threshold ?? input.config.limits.max_duration_minutes;
  const limit = cap === null ? "its time limit" : `its ${plural(cap, "minute")}`;
  return [
    `the run used ${limit} (limits.max_duration_minutes); \`loop run\` starts a new run with the full time, or raise limits.max_duration_minutes`,
  ];
};

const testSaturation: Advice = (input) => {
  const loops = input.config.stop_when.test_only_loops;
  return [
    `the agent only ran tests for ${plural(loops, "iteration")} in a row (stop_when.test_only_loops); check that the open tasks still need work, then \`loop run\` (the streak starts over), or raise stop_when.test_only_loops`,
  ];
};

const doneSignals: Advice = (input) => {
  const signals = input.config.stop_when.done_signals;
  return [
    `the agent said the work is done ${plural(signals, "time")} in a row, but the plan's exit gate did not pass (stop_when.done_signals); check the open tasks (check the boxes of finished ones, or write in the plan what is left), then \`loop run\``,
  ];
};

const needsInput: Advice = (input, state) => {
  const loops = input.config.stop_when.question_loops;
  return [
    `the agent only asked questions for ${plural(loops, "iteration")} in a row (stop_when.question_loops); answer them in the plan, then \`loop run\``,
    ...agentLines(state, true),
  ];
};

const blocked: Advice = (_input, state) => {
  const reason = state.run?.agent_report?.reason ?? null;
  return [
    `the agent is blocked: ${reason ?? "its status block says STATUS: BLOCKED"}; give it what it needs (or write the decision in the plan), then \`loop run\``,
    ...agentLines(state, false),
  ];
};

const noRunnableTasks: Advice = (input, state) => {
  const failed = state.failed_tasks;
  if (failed.length === 0) {
    return ["the given-up tasks were forgotten since: `loop run` tries them again"];
  }
  const attempts = input.config.tasks.max_attempts;
  return [
    `no open task can run: ${plural(failed.length, "task")} given up after ${plural(attempts, "attempt")} (${failed.join(", ")}), the rest wait on them; fix what stops them, then run \`loop reset --failed\` to try them again (tasks.max_attempts sets the attempts)`,
  ];
};

const usageLimit: Advice = (input, state) => {
  const limit = state.run?.usage_limit;
  if (limit !== undefined && !limit.waitable) {
    return [
      `the agent's usage limit cannot be lifted by waiting: ${limit.message}; check the agent's plan or billing, then \`loop run\``,
    ];
  }
  const resetAt = readTime(limit?.reset_at ?? null);
  const lifts =
    resetAt === null
      ? ""
      : resetAt > input.now
        ? `; it lifts at ${formatUtcClock(resetAt, input.now)}`
        : "; it has lifted since";
  return [
    `the agent's usage limit was reached${lifts}; \`loop run\` once it lifts, or set usage_limit.on_limit: wait to wait it out`,
  ];
};

const aborted: Advice = () => [
  "stopped by Ctrl+C, SIGTERM or SIGHUP; `loop run` goes on where it stopped",
];

/** The advice for each exit a person can get out of; completion and errors have none here. */
const ADVICE: Partial<Record<ExitReason, Advice>> = {
  max_iterations: maxIterations,
  budget_exhausted: budgetExhausted,
  time_limit: timeLimit,
  circuit_open: (input, state) => circuitAdvice(state, input.config, input.now),
  test_saturation: testSaturation,
  done_signals: doneSignals,
  needs_input: needsInput,
  blocked,
  no_runnable_tasks: noRunnableTasks,
  usage_limit: usageLimit,
  aborted,
};

/**
 * Why a loop stopped, in words, and what to do to go on: which config key or `loop run` flag
 * to raise, when a limit lifts (in UTC), `loop reset`, or what the agent asked. The first line
 * says why and what to do; the others are details (the agent's questions, its
 * recommendation). Read from the state as it is now, so after a reset it says the stop has
 * been lifted.
 *
 * @param input - the exit reason, the state, the config and the time.
 * @returns the lines; none for a completion or an error (whose message says it all).
 */
export function exitAdvice(input: ExitAdviceInput): string[] {
  const advice = ADVICE[input.reason];
  if (advice === undefined || input.state === null) return [];
  return advice(input, input.state);
}
