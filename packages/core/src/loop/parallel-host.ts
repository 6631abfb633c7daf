import type { EventEmitter } from "eventemitter3";
import type { LoopConfig } from "../config/loop-config.js";
import type {
  DecisionEventName,
  DecisionEventPayloads,
} from "../observe/decision-event-payloads.js";
import type { PlanAnalyses } from "../plan/plan-analyses.js";
import type { ExitDecision } from "../policy/should-exit.js";
import type { LoopState } from "../state/loop-state.js";
import type { Clock } from "./clock.js";
import type { ExecutionRequest, ExecutionResult, UsageLimit } from "./executor.js";
import type { LoopEvents } from "./loop-events.js";
import type { LoopTask, PlanView } from "./plan-view.js";
import type { RunLoopOptions } from "./run-loop-options.js";
import type { SharedLimitsUsage } from "./shared-limits.js";
import type { SharedLimitsGate } from "./shared-limits-gate.js";
import type { TaskWorkspace } from "./workspace.js";

/**
 * What a parallel run needs of the loop it runs in: the loop's state, log and events, and the
 * steps a worker's iteration shares with a serial one (its request, how its outcome is settled).
 */
export interface ParallelHost {
  readonly options: RunLoopOptions;
  readonly clock: Clock;
  readonly terminalId: string;
  readonly cache: PlanAnalyses;
  readonly emitter: EventEmitter<LoopEvents>;
  /** The loop's state now. */
  state(): LoopState;
  /** Makes `state` the loop's state (saved with the next write). */
  setState(state: LoopState): void;
  /** Saves the loop's state. */
  writeState(): Promise<void>;
  /** Records a decision event. */
  record<Name extends DecisionEventName>(name: Name, payload: DecisionEventPayloads[Name]): void;
  /** Records an `error` event. */
  recordError(error: unknown, iteration: number, taskId: string | null): void;
  /** Reads the main plan. */
  readView(config: LoopConfig): Promise<PlanView>;
  /** The request of an iteration on `task`, in its working copy. */
  request(
    config: LoopConfig,
    view: PlanView,
    task: LoopTask,
    iteration: number,
    attempt: number,
    workspace: TaskWorkspace,
  ): ExecutionRequest;
  /** The executor's result with implausible reports dropped (and recorded). */
  checked(result: ExecutionResult, iteration: number, taskId: string): ExecutionResult;
  /** Books what a run cost. */
  addCost(costUsd: number | undefined): void;
  /**
   * Settles a finished iteration as a serial one is settled — attempts, breaker and stop
   * counters, the plan's box and status, verification, `iteration_end` — and returns the exit
   * decision.
   */
  settle(
    config: LoopConfig,
    task: LoopTask,
    result: ExecutionResult,
    timedOut: boolean,
    iteration: number,
    aborted: boolean,
  ): Promise<ExitDecision | null>;
  /** Names where a task's work is kept, for its `task_failed` event if it is given up. */
  keepBranch(taskId: string, branch: string | null): void;
  /** The usage limit that ends the loop, for its `loop_exit` record. */
  setUsageLimit(limit: UsageLimit): void;
  /** The loop's shared limits, which every worker's call is claimed from; `null`: none. */
  readonly shared: SharedLimitsGate | null;
  /** The fleet's counts when its budget ends the loop, for its `loop_exit` record. */
  setSharedBudget(usage: SharedLimitsUsage): void;
  /** Records that the fleet's hourly calls hold new starts back for `waitMs`. */
  recordSharedWait(usage: SharedLimitsUsage, waitMs: number): void;
}
