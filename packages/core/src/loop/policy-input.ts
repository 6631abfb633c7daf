import type { LoopConfig } from "../config/loop-config.js";
import type { ExitPolicyInput } from "../policy/exit-policy-input.js";
import { parseTimestamp } from "../state/iso-timestamp.js";
import type { LoopState } from "../state/loop-state.js";
import { toCircuitBreakerState } from "../state/persisted-circuit-breaker.js";
import { toStopCounters } from "../state/persisted-stop-counters.js";
import type { ResponseSignals } from "../status/response-signals.js";
import type { PlanView } from "./plan-view.js";

/** What the engine knows when it asks the exit policy. */
export interface PolicyContext {
  readonly config: LoopConfig;
  readonly view: PlanView;
  readonly state: LoopState;
  readonly selection: ExitPolicyInput["selection"];
  readonly signals: ResponseSignals | null;
  /** The last verification's verdict; `null` when none ran. */
  readonly verificationPassed: boolean | null;
  readonly now: number;
  readonly aborted: boolean;
  /** The wrap-up iteration just run on a finished plan; `null` otherwise. */
  readonly wrapUp?: ExitPolicyInput["wrapUp"];
}

/** The exit policy's input from the engine's state, plan and config. */
export function policyInputFor(context: PolicyContext): ExitPolicyInput {
  const { config, view, state } = context;
  return {
    config,
    tasks: view.tasks,
    planStatus: view.status,
    signals: context.signals,
    verification:
      context.verificationPassed === null ? null : { passed: context.verificationPassed },
    stories: view.prd?.stories ?? null,
    selection: context.selection,
    iterations: state.loop_metadata.iterations,
    completionIndicators: state.completion_indicators,
    costUsd: state.cost_usd ?? 0,
    startedAt: parseTimestamp(state.run?.started_at ?? state.loop_metadata.started_at),
    now: context.now,
    circuit: toCircuitBreakerState(state.circuit_breaker).state,
    counters: toStopCounters(state.stop_counters),
    aborted: context.aborted,
    wrapUp: context.wrapUp ?? null,
  };
}
