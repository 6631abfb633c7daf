import type { LoopConfig } from "../config/loop-config.js";
import { observeIteration } from "../policy/circuit-breaker.js";
import { countsAsCompletionIndicator } from "../policy/completion-indicator.js";
import { isQuestionOnly, updateStopCounters } from "../policy/stop-counters.js";
import type { LoopState } from "../state/loop-state.js";
import {
  fromCircuitBreakerState,
  toCircuitBreakerState,
} from "../state/persisted-circuit-breaker.js";
import { fromStopCounters, toStopCounters } from "../state/persisted-stop-counters.js";
import { fnv1aHash } from "../status/fnv-hash.js";
import type { ResponseSignals } from "../status/response-signals.js";
import type { ExecutionResult } from "./executor.js";

/** One finished (not aborted) iteration, as {@link observeOutcome} reads it. */
export interface IterationOutcome {
  /** The loop's config. */
  readonly config: LoopConfig;
  /** The state so far, this iteration's counts already in. */
  readonly state: LoopState;
  /** The analysis of the agent's answer. */
  readonly signals: ResponseSignals;
  /** What the executor returned. */
  readonly result: ExecutionResult;
  /** Tasks completed in the iteration. */
  readonly tasksCompleted: number;
  /** Files the iteration changed. */
  readonly filesChanged: number;
  /** The time, in epoch milliseconds. */
  readonly now: number;
}

/**
 * The state after feeding one iteration to the completion indicators, the stop detectors and
 * the circuit breaker (pure), and whether the agent only asked questions. `runLoop` calls it
 * after every iteration that was not aborted; a loop driven from outside (the Claude Code Stop
 * hook) calls it to keep the same streaks, so {@link shouldExit} decides on the same evidence.
 *
 * @param input - the state so far and what the iteration did.
 * @returns the next state, and whether the iteration only asked the user questions.
 */
export function observeOutcome(input: IterationOutcome): {
  state: LoopState;
  questionOnly: boolean;
} {
  const { config, signals, result, tasksCompleted, filesChanged } = input;
  const next = input.state;
  const progress = tasksCompleted > 0 || filesChanged > 0;
  const indicator = countsAsCompletionIndicator({
    tasksCompleted: tasksCompleted,
    signals: result.success || result.output !== "" ? signals : null,
  });
  const question = isQuestionOnly({
    signals,
    tasksCompleted: tasksCompleted,
    filesChanged,
  });
  const state: LoopState = {
    ...next,
    completion_indicators: next.completion_indicators + (indicator ? 1 : 0),
    // A failed run that only ran tests is a failed attempt (it counts against the task), not test
    // saturation: the loop must still move on to the next task.
    stop_counters: fromStopCounters(
      updateStopCounters(toStopCounters(next.stop_counters), {
        signals: { ...signals, testOnly: signals.testOnly && result.success },
        tasksCompleted: tasksCompleted,
        filesChanged,
      }),
    ),
    circuit_breaker: fromCircuitBreakerState(
      observeIteration(
        toCircuitBreakerState(next.circuit_breaker),
        {
          progress,
          // A failure's own words (an agent's stderr can hold a secret) are kept as a hash only,
          // as last_error_fingerprint is documented.
          errorFingerprint:
            signals.errorFingerprint ??
            (result.success ? null : fnv1aHash(`failure\n${result.error ?? "unknown"}`)),
          permissionDenied: signals.permissionDenials.length > 0,
          questionOnly: question,
        },
        {
          noProgressLoops: config.circuit_breaker.no_progress_loops,
          sameErrorLoops: config.circuit_breaker.same_error_loops,
          permissionDenialLoops: config.circuit_breaker.permission_denial_loops,
          cooldownMs: config.circuit_breaker.cooldown_minutes * 60_000,
        },
        input.now,
      ),
    ),
  };
  return { state, questionOnly: question };
}
