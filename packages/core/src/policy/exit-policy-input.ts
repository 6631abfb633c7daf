import type { LoopConfig } from "../config/loop-config.js";
import type { ResponseSignals } from "../status/response-signals.js";
import type { CircuitState } from "./circuit-breaker.js";
import type { StopCounters } from "./stop-counters.js";
import type { TaskSelection } from "./task-selection.js";

/** The parts of the config the exit policy reads. */
export type ExitPolicyConfig = Pick<
  LoopConfig,
  "enforcement" | "exit_policy" | "verification" | "limits" | "stop_when"
>;

/**
 * What a wrap-up iteration on a finished plan did: with the answer (`signals`), the plan
 * (`tasks`) and the verification, it tells whether the answer reopened work. The engine fills
 * it in; a test of a policy writes it by hand.
 */
export interface WrapUpObservation {
  /** Whether the run failed (an error, a crash, a timeout): a failed run confirms nothing. */
  readonly failed: boolean;
  /** Files the iteration changed (commits included): the agent found work to do. */
  readonly filesChanged: number;
  /** Tasks the plan gained during it. */
  readonly tasksAdded: number;
  /** Concerns the user raised in the session (corrections, issues, blockers) found after it. */
  readonly concerns: number;
}

/** Everything {@link shouldExit} decides on: plain data, no I/O, the clock passed in. */
export interface ExitPolicyInput {
  /** The loop's config (the full `LoopConfig` fits). */
  readonly config: ExitPolicyConfig;
  /** The plan's tasks (a `Task[]` from `parsePlan` fits). Optional tasks never block completion. */
  readonly tasks: readonly {
    readonly id: string;
    readonly done: boolean;
    readonly optional?: boolean;
  }[];
  /** The plan's RALPH_STATUS section (its `EXIT_SIGNAL`), `null` when it has none. */
  readonly planStatus?: { readonly exitSignal: boolean | null } | null | undefined;
  /** The analysis of the agent's last answer, `null` before the first one or after a failed run. */
  readonly signals?: ResponseSignals | null | undefined;
  /** The last verification result, `null` when verification has not run. */
  readonly verification?: { readonly passed: boolean } | null | undefined;
  /** prd.json stories, when the loop runs over a prd: every story passing ends the loop. */
  readonly stories?: readonly { readonly passes: boolean }[] | null | undefined;
  /** What {@link selectNextTask} said about the next task; `kind: "none"` ends the loop. */
  readonly selection?: Pick<TaskSelection, "kind"> | null | undefined;
  /** Iterations run so far, the last one included. */
  readonly iterations: number;
  /** Completion indicators so far (`loop_state.json`'s `completion_indicators`). */
  readonly completionIndicators: number;
  /** Cost reported by the agent so far, in US dollars. */
  readonly costUsd?: number | undefined;
  /** When the loop started, in epoch milliseconds. */
  readonly startedAt: number;
  /** The current time, in epoch milliseconds, from the injected clock. */
  readonly now: number;
  /** The circuit breaker's state. */
  readonly circuit?: CircuitState | undefined;
  /** The stop detectors' streaks. */
  readonly counters?: StopCounters | undefined;
  /** Whether the caller's AbortSignal fired. */
  readonly aborted?: boolean | undefined;
  /**
   * The wrap-up iteration just run on a finished plan (every required task was checked when it
   * started), and what it did that the rest of the input does not show; `null` or absent when
   * the last iteration was not one (or before an iteration). See {@link WrapUpObservation}.
   */
  readonly wrapUp?: WrapUpObservation | null | undefined;
}
