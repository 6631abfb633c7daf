import {
  analyzeResponse,
  type ExitDecision,
  type ExitPolicy,
  type ExitPolicyInput,
  formatTimestamp,
  isIsoTimestamp,
  type LoopConfig,
  type LoopState,
  type LoopTask,
  observeOutcome,
  type Prd,
  parseTimestamp,
  selectNextTask,
  shouldExit,
  storyTasks,
  type TaskSelection,
  toCircuitBreakerState,
  toStopCounters,
} from "@loop/core";
import type { RalphLoopState } from "./ralph-loop-state.js";

/** Everything one Stop-hook decision reads: plain data, the clock passed in. */
export interface StopHookPolicyInput {
  /** The loop's config; its `limits.max_iterations` is replaced by the state file's. */
  readonly config: LoopConfig;
  /** The state file. */
  readonly ralph: RalphLoopState;
  /** prd.json as it is now. */
  readonly prd: Prd;
  /** The agent's answer in this iteration (its last assistant turn since the previous stop). */
  readonly answer: string;
  /** Files the iteration edited (from the transcript's tool uses since the previous stop). */
  readonly filesChanged: number;
  /** The loop state of the previous stop; `null` at the first. */
  readonly previous: LoopState | null;
  /** A fresh state for the first stop. */
  readonly initial: LoopState;
  /** The current time, in epoch milliseconds. */
  readonly now: number;
  /** A policy wrapping or replacing `shouldExit`, as `runLoop`'s `policy` option. */
  readonly policy?: ExitPolicy | undefined;
}

/** What the Stop hook decided, and the loop state to keep for the next stop. */
export interface StopHookPolicyDecision {
  /** The exit decision, from the same policy `runLoop` uses. */
  readonly decision: ExitDecision;
  /** What runs next when the loop goes on. */
  readonly selection: TaskSelection<LoopTask>;
  /** The loop state after this iteration. */
  readonly state: LoopState;
}

/** When the loop started: the state file's `started_at` when it is a timestamp, else the state's. */
function startedAt(ralph: RalphLoopState, state: LoopState): number {
  const fromFile = ralph.startedAt;
  return fromFile !== null && isIsoTimestamp(fromFile)
    ? parseTimestamp(fromFile)
    : parseTimestamp(state.loop_metadata.started_at);
}

/**
 * Feeds the iteration that just ended to the loop's streaks and decides, with `shouldExit`,
 * whether the session may stop. Pure.
 *
 * The iteration's evidence is what a Stop hook can see: stories that now pass and did not at
 * the previous stop and files the agent edited (progress), and the last assistant answer in
 * the iteration (its RALPH_STATUS block, blocked or done statements, questions). The story
 * offered at the previous stop uses an attempt when the iteration made no progress, so a story
 * stuck for `tasks.max_attempts` iterations is recorded as failed and the loop moves on, as the
 * ralph-loop skill asks.
 */
export function decideStop(input: StopHookPolicyInput): StopHookPolicyDecision {
  const { ralph, prd, now } = input;
  const config: LoopConfig = {
    ...input.config,
    limits: { ...input.config.limits, max_iterations: ralph.maxIterations },
  };
  const prior = input.previous ?? input.initial;
  const tasks = storyTasks(prd);
  const passing = tasks.filter((task) => task.done).map((task) => task.id);
  const newlyPassing = passing.filter((id) => !prior.completed_tasks.includes(id));
  const current = prior.current_task_id;
  const attempts = { ...(prior.task_attempts ?? {}) };
  const progress = newlyPassing.length > 0 || input.filesChanged > 0;
  if (current !== null && !progress && !passing.includes(current)) {
    attempts[current] = (attempts[current] ?? 0) + 1;
  }
  const output = input.answer;
  const signals = analyzeResponse(output);
  const observed = observeOutcome({
    config,
    state: {
      ...prior,
      completed_tasks: passing,
      task_attempts: attempts,
      loop_metadata: {
        ...prior.loop_metadata,
        iterations: ralph.iteration,
        last_update: formatTimestamp(now),
      },
    },
    signals,
    result: { output, success: true },
    tasksCompleted: newlyPassing.length,
    filesChanged: input.filesChanged,
    now,
  }).state;
  const selection = selectNextTask<LoopTask>({
    tasks,
    attempts,
    failedTaskIds: observed.failed_tasks,
    maxAttempts: config.tasks.max_attempts,
  });
  const failed = [...observed.failed_tasks];
  for (const id of selection.newlyFailed) if (!failed.includes(id)) failed.push(id);
  const state: LoopState = {
    ...observed,
    failed_tasks: failed,
    current_task_id: selection.kind === "task" ? selection.task.id : null,
  };
  const policyInput: ExitPolicyInput = {
    config,
    tasks,
    planStatus: null,
    signals,
    verification: null,
    stories: prd.stories,
    selection,
    iterations: ralph.iteration,
    completionIndicators: state.completion_indicators,
    costUsd: state.cost_usd ?? 0,
    startedAt: startedAt(ralph, state),
    now,
    circuit: toCircuitBreakerState(state.circuit_breaker).state,
    counters: toStopCounters(state.stop_counters),
    aborted: false,
  };
  const decision = input.policy ? input.policy(policyInput, shouldExit) : shouldExit(policyInput);
  return { decision, selection, state };
}
