import { EventEmitter } from "eventemitter3";
import { checkConfig } from "../config/config-warnings.js";
import type { LoopConfig } from "../config/loop-config.js";
import { LoopError } from "../errors/loop-error.js";
import { bestEffort } from "../observe/best-effort-logger.js";
import { createDecisionEvent } from "../observe/create-decision-event.js";
import type { DecisionEvent } from "../observe/decision-event.js";
import type {
  DecisionEventName,
  DecisionEventPayloads,
} from "../observe/decision-event-payloads.js";
import type { LoopMetrics } from "../observe/loop-metrics.js";
import { updateMetrics } from "../observe/metrics-document.js";
import { redactValue } from "../observe/redact-secrets.js";
import { EmptyPlanError } from "../plan/empty-plan-error.js";
import { PlanAnalyses } from "../plan/plan-analyses.js";
import type { ExitPolicyInput } from "../policy/exit-policy-input.js";
import { type ExitReason, isCompletionReason } from "../policy/exit-reasons.js";
import { checkRateLimit, recordCall } from "../policy/rate-limiter.js";
import { type ExitDecision, shouldExit } from "../policy/should-exit.js";
import { isQuestionOnly } from "../policy/stop-counters.js";
import { selectNextTask } from "../policy/task-selection.js";
import { type AgentReport, agentReportOf } from "../state/agent-report.js";
import { createInitialState } from "../state/initial-state.js";
import { formatTimestamp } from "../state/iso-timestamp.js";
import type { LoopState } from "../state/loop-state.js";
import { fromRateWindow, toRateWindow } from "../state/persisted-rate-window.js";
import { PlanInUseError } from "../state/plan-in-use-error.js";
import { planLockId, projectLockId } from "../state/plan-lock-id.js";
import { startRun } from "../state/start-run.js";
import { StateLockedError, StateStoreError } from "../state/state-errors.js";
import { createStateManager, type StateManager } from "../state/state-manager.js";
import type { StateLock } from "../state/state-store.js";
import { toUsageLimitRecord, type UsageLimitRecord } from "../state/usage-limit-record.js";
import { analyzeResponse } from "../status/analyze-response.js";
import type { ResponseSignals } from "../status/response-signals.js";
import type { Concern } from "../verify/user-concerns.js";
import { extractUserConcerns } from "../verify/user-concerns.js";
import { verifyCompletion } from "../verify/verify-completion.js";
import { checkPromptTemplate } from "./check-prompt-template.js";
import { checkResult } from "./checked-result.js";
import type { Clock } from "./clock.js";
import { completeAtStart, completedEarlier } from "./completed-earlier.js";
import { executeWithTimeout, timeoutMessage } from "./execute-with-timeout.js";
import type { ExecutionResult, UsageLimit } from "./executor.js";
import { asError, reasonForError } from "./exit-reason-for-error.js";
import { iterationRequest } from "./iteration-request.js";
import { loadLoopConfig } from "./load-loop-config.js";
import type { LoopEvents } from "./loop-events.js";
import { withAttempts, withCompletedFromPlan, withIds } from "./loop-state-update.js";
import { observeOutcome } from "./observe-outcome.js";
import type { ParallelHost } from "./parallel-host.js";
import { ParallelRun } from "./parallel-run.js";
import { applyPlanChanges, type LoopTask, type PlanView, readPlanView } from "./plan-view.js";
import { policyInputFor } from "./policy-input.js";
import { prepareIteration } from "./prepare-iteration.js";
import { AgentProcessRecorder, stopPreviousAgent, withoutAgentProcess } from "./previous-agent.js";
import { UNKNOWN_RESET_WAIT_MS } from "./reset-wait.js";
import { defaultRunId } from "./run-id.js";
import type { LoopResult, RunLoopOptions } from "./run-loop-options.js";
import type { SharedLimitsUsage } from "./shared-limits.js";
import type { SharedLimitsError } from "./shared-limits-error.js";
import { SHARED_LIMITS_RETRY_DELAYS_MS, SharedLimitsGate } from "./shared-limits-gate.js";
import { toSharedUsageRecord } from "./shared-usage-record.js";
import { systemClock } from "./system-clock.js";
import { UnsupportedExecutorError } from "./unsupported-executor-error.js";
import { UnsupportedSharedLimitsError } from "./unsupported-shared-limits-error.js";
import type { TaskWorkspace } from "./workspace.js";

export { UNKNOWN_RESET_WAIT_MS } from "./reset-wait.js";

/** A loop ready to run, with typed events to subscribe to first. */
export interface Loop extends Pick<EventEmitter<LoopEvents>, "on" | "off" | "once"> {
  /** Runs the loop to its exit. Resolves with the result; never rejects. */
  run(): Promise<LoopResult>;
}

/**
 * Creates a loop without starting it, so a UI can subscribe to its events first.
 *
 * @example
 * ```ts
 * const loop = createLoop({ plan, executor, store });
 * loop.on("iteration-start", ({ iteration, task }) => console.log(iteration, task?.id));
 * const result = await loop.run();
 * ```
 */
export function createLoop(options: RunLoopOptions): Loop {
  const emitter = new EventEmitter<LoopEvents>();
  let started = false;
  return {
    on: (...args) => emitter.on(...args),
    off: (...args) => emitter.off(...args),
    once: (...args) => emitter.once(...args),
    run() {
      if (started) throw new Error("A loop runs once; create another with createLoop()");
      started = true;
      return new LoopRun(options, emitter).run();
    },
  } as Loop;
}

/**
 * Runs a Ralph-style loop: each iteration picks the next task of the plan, asks the executor's
 * agent to do it, records what changed, and asks the exit policy whether to stop. State is kept
 * in the store (resumable after a crash), every decision is logged, and the loop resolves with
 * why it stopped. It never rejects: errors end the loop with an error exit reason and the error.
 *
 * @example
 * ```ts
 * const result = await runLoop({ plan: filePlan("plan.md"), executor, store: createFileStateStore() });
 * console.log(result.exitReason, result.complete);
 * ```
 */
export function runLoop(options: RunLoopOptions): Promise<LoopResult> {
  return createLoop(options).run();
}

class LoopRun {
  private readonly clock: Clock;
  private readonly terminalId: string;
  private readonly manager: StateManager;
  private readonly logger;
  /** Each plan text's analysis, parsed once: read, edited by the engine, read again. */
  private readonly cache = new PlanAnalyses();
  private readonly startedAt: number;
  private state: LoopState | null = null;
  private iterationsThisRun = 0;
  private costThisRun = 0;
  private lastDecision: ExitDecision | null = null;
  private unmetRequirements: string[] = [];
  private concerns: Concern[] = [];
  private lastFailure = new Map<string, string>();
  private unansweredQuestions: string[] = [];
  private verificationPassed: boolean | null = null;
  private sessionId: string | null = null;
  /** The iteration being run, for error events raised during it; `null` between iterations. */
  private iterationInProgress: number | null = null;
  /** The task of the iteration being run, for error events raised during it. */
  private taskInProgress: string | null = null;
  /** Why each task's last attempt failed, when it failed with an error (for `task_failed`). */
  private failureReasons = new Map<string, string>();
  /** The terminal's state as stored before this run started it. */
  private storedAtStart: LoopState | null = null;
  /** What the agent said in the iteration that decided `blocked` or `needs_input`. */
  private agentReport: AgentReport | null = null;
  /** The usage limit that decided `usage_limit`. */
  private usageLimit: UsageLimitRecord | null = null;
  /** Where each task's work is kept in a parallel run, for its `task_failed` event. */
  private readonly keptBranches = new Map<string, string>();
  /** The workers of a parallel run; `null` for a serial run. */
  private readonly parallel: ParallelRun | null;
  /** The shared limits' side in this run; `null` without `sharedLimits`. */
  private readonly shared: SharedLimitsGate | null;
  /** The fleet's counts when the shared limits' budget stopped the loop. */
  private sharedBudget: SharedLimitsUsage | null = null;
  /** Saves the state's `agent_process` while an agent runs. */
  private readonly agentProcesses = new AgentProcessRecorder({
    read: () => this.state as LoopState,
    write: (state, options) => {
      this.state = state;
      return this.writeState(options);
    },
    now: () => this.now(),
  });

  /**
   * What stops the run: the caller's `signal`, or the terminal's lock lost while the run holds
   * it (`StateLock.signal`: a lease another holder took over), which stops the agent at once.
   */
  private readonly stopper = new AbortController();
  /** The last state write asked for; it never rejects (each caller sees its own failure). */
  private lastWrite: Promise<void> = Promise.resolve();
  /**
   * The iteration whose end is in `state` but in no write yet ({@link deferWrite}): the next
   * state write saves it.
   */
  private unsavedEnd: { readonly iteration: number; readonly taskId: string | null } | null = null;
  /** The metrics of the iteration end not saved yet: written once the state that holds it is. */
  private unsavedMetrics: LoopMetrics | null = null;
  /**
   * A failed write that carried an iteration's end: thrown where the loop next depends on its
   * state being saved, its error event naming that iteration and task.
   */
  private deferredFailure: {
    readonly error: unknown;
    readonly iteration: number;
    readonly taskId: string | null;
  } | null = null;
  /** Why the terminal's lock was lost, once it was: the run then ends with `state_error`. */
  private lockLost: Error | null = null;
  /** Passes the caller's abort on to the stopper (removed when the run ends). */
  private readonly forwardAbort = () => this.stopper.abort(this.options.signal?.reason);
  /** Stops listening to the terminal lock's signal (set while a lock is watched). */
  private unwatchLock: () => void = () => {};

  constructor(
    private readonly options: RunLoopOptions,
    private readonly emitter: EventEmitter<LoopEvents>,
  ) {
    const signal = options.signal;
    if (signal?.aborted) this.stopper.abort(signal.reason);
    signal?.addEventListener("abort", this.forwardAbort, { once: true });
    this.clock = options.clock ?? systemClock;
    this.terminalId = options.terminalId ?? "default";
    this.manager = createStateManager(options.store);
    this.logger =
      options.logger === undefined
        ? null
        : bestEffort(options.logger, { onError: (error) => options.onLoggerError?.(error) });
    this.startedAt = this.clock.now();
    this.shared =
      options.sharedLimits === undefined
        ? null
        : new SharedLimitsGate(options.sharedLimits, {
            clock: this.clock,
            caller: () => ({
              terminalId: this.terminalId,
              runId: this.state?.run?.run_id ?? null,
            }),
            onOutage: (error) => this.reportSharedOutage(error),
          });
    this.parallel =
      options.parallel === undefined
        ? null
        : new ParallelRun(this.parallelHost(), options.parallel);
  }

  /** What the workers of a parallel run use of this loop. */
  private parallelHost(): ParallelHost {
    return {
      // The workers stop on the run's stopper: the caller's signal or the lock lost.
      options: { ...this.options, signal: this.stopper.signal },
      clock: this.clock,
      terminalId: this.terminalId,
      cache: this.cache,
      emitter: this.emitter,
      state: () => this.state as LoopState,
      setState: (state) => {
        this.state = state;
      },
      writeState: () => this.writeState(),
      record: (name, payload) => this.record(name, payload),
      recordError: (error, iteration, taskId) => {
        const previous = this.taskInProgress;
        this.taskInProgress = taskId;
        this.recordError(error, iteration);
        this.taskInProgress = previous;
      },
      readView: (config) =>
        readPlanView(this.options.plan, this.cache, config.plans.optional_headings),
      request: (config, view, task, iteration, attempt, workspace) =>
        this.requestFor(config, view, task, iteration, attempt, workspace),
      checked: (result, iteration, taskId) => this.checked(result, iteration, taskId),
      addCost: (costUsd) => this.addCost(costUsd),
      settle: async (config, task, result, timedOut, iteration, aborted) => {
        const before = await readPlanView(
          this.options.plan,
          this.cache,
          config.plans.optional_headings,
        );
        await this.afterExecution(config, before, task, result, timedOut, iteration, aborted);
        // A worker's outcome is saved before its settling ends, as its next start expects.
        await this.settleWrites();
        return this.lastDecision;
      },
      keepBranch: (taskId, branch) => {
        if (branch === null) this.keptBranches.delete(taskId);
        else this.keptBranches.set(taskId, branch);
      },
      setUsageLimit: (limit) => {
        this.usageLimit = toUsageLimitRecord(limit);
      },
      shared: this.shared,
      setSharedBudget: (usage) => {
        this.sharedBudget = usage;
      },
      recordSharedWait: (usage, waitMs) => this.recordSharedWait(usage, waitMs),
    };
  }

  /** The shared limits began to fail: said once, while the engine retries. */
  private reportSharedOutage(error: SharedLimitsError): void {
    const seconds = SHARED_LIMITS_RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0) / 1000;
    this.record("error", {
      error_type: error.name,
      error_message: `${error.message} — no agent is called until they answer again; retrying for up to ${seconds} s before the loop stops with limits_error`,
      iteration: this.iterationInProgress ?? this.state?.loop_metadata.iterations ?? 0,
      current_task_id: this.taskInProgress ?? this.state?.current_task_id ?? null,
    });
  }

  /** The fleet's hourly calls are used up: the wait's record and event. */
  private recordSharedWait(usage: SharedLimitsUsage, waitMs: number): void {
    const limit = usage.maxCallsPerHour ?? usage.callsThisHour;
    this.record("rate_limit_wait", {
      reset_at: formatTimestamp(this.clock.now() + waitMs),
      calls_made: usage.callsThisHour,
      max_calls_per_hour: limit,
      wait_ms: waitMs,
      scope: "fleet",
    });
    this.emitter.emit("wait", {
      kind: "rate_limit",
      scope: "fleet",
      until: this.clock.now() + waitMs,
      waitMs,
      message: `${usage.callsThisHour} of ${limit} calls this hour across the fleet (${this.options.sharedLimits?.name ?? "shared limits"})`,
    });
  }

  /**
   * An iteration's request, from what the loop knows now. A parallel run's worker (its
   * `workspace`) starts a session of its own and carries no questions of another task's run.
   */
  private requestFor(
    config: LoopConfig,
    view: PlanView,
    task: LoopTask | null,
    iteration: number,
    attempt: number,
    workspace?: TaskWorkspace,
  ) {
    return iterationRequest({
      options: this.options,
      config,
      view,
      task,
      iteration,
      attempt,
      terminalId: this.terminalId,
      sessionId: workspace === undefined ? this.sessionId : null,
      unmetRequirements: this.unmetRequirements,
      concerns: this.concerns,
      unansweredQuestions: workspace === undefined ? this.unansweredQuestions : [],
      previousFailure: task ? (this.lastFailure.get(task.id) ?? null) : null,
      workspace,
    });
  }

  /** The executor's result with implausible reports dropped, each recorded as an error. */
  private checked(result: ExecutionResult, iteration: number, taskId: string | null) {
    const checked = checkResult(result, this.clock.now());
    for (const problem of checked.problems) {
      this.record("error", {
        error_type: "ImplausibleAgentReport",
        error_message: problem,
        iteration,
        current_task_id: taskId,
      });
    }
    return checked.result;
  }

  private now(): string {
    return formatTimestamp(this.clock.now());
  }

  private record<Name extends DecisionEventName>(
    name: Name,
    payload: DecisionEventPayloads[Name],
  ): void {
    // What an agent printed can hold a credential: the log keeps it redacted.
    const event = createDecisionEvent(
      this.terminalId,
      name,
      redactValue(payload),
      this.now(),
    ) as DecisionEvent;
    this.logger?.log(event);
    this.emitter.emit("decision", event);
  }

  private recordError(error: unknown, iteration: number): void {
    const failure = asError(error);
    this.record("error", {
      error_type: failure.name,
      error_message: failure.message,
      iteration,
      current_task_id: this.taskInProgress ?? this.state?.current_task_id ?? null,
      ...(failure.stack === undefined ? {} : { traceback: failure.stack }),
    });
  }

  async run(): Promise<LoopResult> {
    let terminal: StateLock | null = null;
    let planLocks: readonly StateLock[] = [];
    let exit: { reason: ExitReason; error: Error | null; complete: boolean };
    // Refused by a lock (another loop runs on this terminal, plan or project): this run never
    // started, so it writes nothing, neither state nor decision log.
    let refused = false;
    try {
      terminal = await this.takeTerminalLock().catch((error: unknown) => {
        refused = StateLockedError.isInstance(error);
        throw error;
      });
      this.watchLock(terminal);
      const config = await this.loadConfig();
      planLocks = await this.takePlanLocks(config).catch((error: unknown) => {
        refused = PlanInUseError.isInstance(error);
        throw error;
      });
      if (terminal?.takenOverFrom) {
        const holder = terminal.takenOverFrom;
        this.record("lock_takeover", {
          previous_holder: { pid: holder.pid, host: holder.host, started_at: holder.startedAt },
        });
      }
      exit = await this.loop(config);
      // The lock was lost, and the run stopped as if aborted without a write refusing it.
      if (this.lockLost !== null && exit.reason === "aborted") throw this.lockLost;
    } catch (error) {
      exit = { reason: reasonForError(error), error: asError(error), complete: false };
      if (!refused) {
        this.recordError(
          error,
          this.iterationInProgress ?? this.state?.loop_metadata.iterations ?? 0,
        );
        // The run ends on this error: a deferred write's failure, if any, does not keep its
        // final state from being written (as a failed final write, it is not reported).
        this.deferredFailure = null;
        await this.finish(exit.reason).catch(() => undefined);
      }
    } finally {
      // What an executor holds for a next run (a process started ahead) ends with this one.
      for (const executor of new Set([
        this.options.executor,
        this.options.parallel?.mergeExecutor,
      ])) {
        try {
          executor?.release?.();
        } catch {
          // A release that fails loses nothing of the run; the executor's doc forbids it.
        }
      }
      // A caller's signal may outlive many runs: it keeps no listener of this one.
      this.options.signal?.removeEventListener("abort", this.forwardAbort);
      this.unwatchLock();
      for (const lock of [...planLocks].reverse()) await lock.release().catch(() => undefined);
      await terminal?.release().catch(() => undefined);
      await this.logger?.flush();
    }
    this.emitter.emit("exit", { reason: exit.reason, complete: exit.complete });
    return {
      exitReason: exit.reason,
      complete: exit.complete,
      iterations: this.iterationsThisRun,
      totalIterations: this.state?.loop_metadata.iterations ?? this.iterationsThisRun,
      tasksCompleted: this.state?.completed_tasks ?? [],
      tasksFailed: this.state?.failed_tasks ?? [],
      costUsd: this.costThisRun,
      durationMs: this.clock.now() - this.startedAt,
      state: this.state,
      decision: this.lastDecision,
      error: exit.error,
    };
  }

  /**
   * Stops the run at once when the terminal's lock is lost while it is held (its `signal`
   * fires): the agent is stopped, and the run ends with `state_error` and the store's reason.
   */
  private watchLock(lock: StateLock | null): void {
    const signal = lock?.signal;
    if (signal === undefined) return;
    const lost = () => {
      const reason = signal.reason;
      this.lockLost =
        LoopError.isInstance(reason) && reason.code.startsWith("STATE")
          ? reason
          : new StateStoreError({
              message: `the lock on terminal "${this.terminalId}" was lost while the loop held it: ${asError(reason).message}`,
              cause: reason,
            });
      this.stopper.abort(this.lockLost);
    };
    if (signal.aborted) lost();
    else {
      signal.addEventListener("abort", lost, { once: true });
      this.unwatchLock = () => signal.removeEventListener("abort", lost);
    }
  }

  /** Takes the terminal's lock (`null` with a store that locks nothing). */
  private async takeTerminalLock(): Promise<StateLock | null> {
    return (await this.options.store.lock?.(this.terminalId)) ?? null;
  }

  /**
   * Takes the project's lock when its terminals share one plan
   * (`plans.allow_per_terminal_plan: false` and a `projectRoot`) or the run is parallel (its
   * workspaces are the repository's), then the plan file's: a
   * second loop in the project, or on the same plan from another terminal, is refused
   * ({@link PlanInUseError}). On a refusal the locks taken are let go.
   */
  private async takePlanLocks(config: LoopConfig): Promise<StateLock[]> {
    const store = this.options.store;
    if (store.lock === undefined) return [];
    const planPath = this.options.plan.path;
    const projectRoot = this.options.projectRoot;
    const wanted: { readonly id: string; readonly projectRoot?: string }[] = [];
    // A parallel run's workspaces belong to the repository: one such loop per project.
    const wholeProject =
      !config.plans.allow_per_terminal_plan || this.options.parallel !== undefined;
    if (projectRoot !== undefined && wholeProject) {
      wanted.push({ id: projectLockId(projectRoot), projectRoot });
    }
    if (planPath !== "") wanted.push({ id: planLockId(planPath) });
    const taken: StateLock[] = [];
    for (const lock of wanted) {
      try {
        taken.push(await store.lock(lock.id));
      } catch (error) {
        for (const held of taken.reverse()) await held.release().catch(() => undefined);
        if (!StateLockedError.isInstance(error)) throw error;
        throw new PlanInUseError({
          planPath,
          holder: error.holder,
          projectRoot: lock.projectRoot,
          parallel: this.options.parallel !== undefined,
          cause: error,
        });
      }
    }
    return taken;
  }

  private loadConfig(): Promise<LoopConfig> {
    return loadLoopConfig(this.options);
  }

  private async readState(): Promise<LoopState> {
    const { state, recovery } = await this.manager.readState(this.terminalId);
    if (recovery !== null) {
      this.record("state_recovered", { from: recovery.from, problem: recovery.problem });
      this.recordError(
        Object.assign(
          new Error(
            `loop_state.json was unusable (${recovery.problem}); ${recovery.from === "backup" ? "recovered from its backup" : "starting from a fresh state"}`,
          ),
          {
            name: "StateRecovered",
          },
        ),
        state?.loop_metadata.iterations ?? 0,
      );
    }
    this.storedAtStart = state;
    const fresh =
      state ?? createInitialState({ planPath: this.options.plan.path, now: this.now() });
    return startRun(fresh, {
      runId: this.options.generateRunId?.() ?? defaultRunId(this.clock.now()),
      now: this.now(),
    });
  }

  /**
   * A previous run killed while its agent ran left `agent_process` behind: what is left of that
   * agent is stopped (by the executor, which can tell its processes from others) before this run
   * starts its own, and the record is dropped.
   */
  private async stopPreviousAgent(): Promise<void> {
    const recorded = this.state?.agent_process;
    if (this.state === null || recorded === undefined) return;
    this.state = withoutAgentProcess(this.state);
    const stopped = await stopPreviousAgent(recorded, this.options.executor);
    if (stopped !== null) this.record("previous_agent_stopped", stopped);
  }

  /**
   * Saves the state as it is now. Writes are made one at a time, in the order they are asked
   * for (each a snapshot of the state when asked), whatever the store does with concurrent
   * ones: a parallel run's workers and the iteration ends they carry never land out of order.
   * A write carries the iteration end not saved yet, if any ({@link deferWrite}): its failure is
   * then also kept for {@link settleWrites}, and the iteration's metrics follow it. With
   * `durable: false` (the record of a started agent's process group) the store may let a power
   * loss take the version — unless it carries an iteration's end.
   */
  private writeState(options?: { readonly durable?: boolean }): Promise<void> {
    if (this.state === null) return Promise.resolve();
    this.state = {
      ...this.state,
      loop_metadata: { ...this.state.loop_metadata, last_update: this.now() },
    };
    const state = this.state;
    const carried = this.unsavedEnd;
    const metrics = this.unsavedMetrics;
    this.unsavedEnd = null;
    this.unsavedMetrics = null;
    // A write that may be lost to a power loss never carries an iteration's end.
    const durable = carried !== null || options?.durable !== false;
    const write = this.lastWrite.then(() =>
      this.manager.writeState(this.terminalId, state, durable ? null : { durable: false }),
    );
    this.lastWrite = write.catch((error: unknown) => {
      if (carried !== null) this.deferredFailure ??= { error, ...carried };
    });
    // Derived from the state: written once the state it is derived from is.
    if (metrics !== null) {
      void this.lastWrite.then(() =>
        updateMetrics(this.options.store, this.terminalId, metrics, {
          onError: (error) => this.options.onLoggerError?.(error),
        }),
      );
    }
    return write;
  }

  /**
   * Leaves an iteration's end (in `state` now) to the next state write instead of writing it
   * at once. Before the next agent starts, that is the write that records the agent's process
   * (or counts its call): one durable write where there were two. Everything else that
   * depends on the outcome being saved — a wait, a call claimed, a parallel batch, the end of
   * the run — saves it first ({@link settleWrites}), and a failure stops the loop there.
   */
  private deferWrite(iteration: number, taskId: string | null, metrics: LoopMetrics): void {
    this.unsavedEnd = { iteration, taskId };
    this.unsavedMetrics = metrics;
  }

  /**
   * Saves the iteration end not saved yet and waits for every write asked for; throws the
   * failure of a write that carried an iteration's end, which the run's error event then names
   * with that iteration and its task.
   */
  private async settleWrites(): Promise<void> {
    if (this.unsavedEnd !== null) void this.writeState().catch(() => undefined);
    await this.lastWrite;
    this.throwDeferredFailure();
  }

  /** Throws a carried iteration end's failure ({@link deferredFailure}), naming it. */
  private throwDeferredFailure(): void {
    const failure = this.deferredFailure;
    this.deferredFailure = null;
    if (failure === null) return;
    this.iterationInProgress = failure.iteration;
    this.taskInProgress = failure.taskId;
    throw failure.error;
  }

  /**
   * Saves the state now and waits for it, as {@link writeState}; a failure that carried an
   * iteration's end names that iteration.
   */
  private async saveState(): Promise<void> {
    try {
      await this.writeState();
    } catch (error) {
      this.throwDeferredFailure();
      throw error;
    }
  }

  /** What the exit record carries beyond its reason: what the agent said, or the limit hit. */
  private exitReport(reason: ExitReason): {
    agent_report?: AgentReport;
    usage_limit?: UsageLimitRecord;
  } {
    if ((reason === "blocked" || reason === "needs_input") && this.agentReport !== null) {
      return { agent_report: this.agentReport };
    }
    if (reason === "usage_limit" && this.usageLimit !== null) {
      return { usage_limit: this.usageLimit };
    }
    return {};
  }

  private async finish(reason: ExitReason): Promise<void> {
    if (this.state === null) return;
    await this.settleWrites();
    await this.settleSharedCosts();
    const run = this.state.run;
    const report = this.exitReport(reason);
    if (run) {
      this.state = {
        ...this.state,
        run: { ...run, status: "exited", exit_reason: reason, ...report },
      };
    }
    await this.writeState();
    this.record("loop_exit", {
      total_iterations: this.state.loop_metadata.iterations,
      total_tasks_completed: this.state.completed_tasks.length,
      exit_reason: reason,
      final_state: this.state,
      ...report,
      ...(reason === "budget_exhausted" && this.sharedBudget !== null
        ? { shared_limits: toSharedUsageRecord(this.sharedBudget) }
        : {}),
    });
  }

  /** Records the cost the shared limits have not got yet; says so when they cannot take it. */
  private async settleSharedCosts(): Promise<void> {
    const unrecorded = await this.shared?.settle();
    if (unrecorded === undefined || unrecorded === null) return;
    this.record("error", {
      error_type: unrecorded.error.name,
      error_message: `$${unrecorded.costUsd.toFixed(4)} of this run's cost could not be recorded in the shared limits: ${unrecorded.error.message}`,
      iteration: this.state?.loop_metadata.iterations ?? 0,
      current_task_id: null,
    });
  }

  private async loop(
    firstConfig: LoopConfig,
  ): Promise<{ reason: ExitReason; error: Error | null; complete: boolean }> {
    const executor = this.options.executor as { specificationVersion?: unknown };
    if (executor.specificationVersion !== "v1") {
      throw new UnsupportedExecutorError({ specificationVersion: executor.specificationVersion });
    }
    const shared = this.options.sharedLimits as { specificationVersion?: unknown } | undefined;
    if (shared !== undefined && shared.specificationVersion !== "v1") {
      throw new UnsupportedSharedLimitsError({ specificationVersion: shared.specificationVersion });
    }
    checkPromptTemplate(this.options.prompt);
    let config = firstConfig;
    for (const warning of checkConfig(config)) {
      this.record("config_warning", {
        code: warning.code,
        path: warning.path.map(String),
        message: warning.message,
      });
    }
    this.state = await this.readState();
    this.sessionId = this.state.session_id ?? null;
    await this.stopPreviousAgent();
    await this.writeState();

    for (;;) {
      if (this.iterationsThisRun > 0) config = await this.loadConfig();
      const view = await readPlanView(
        this.options.plan,
        this.cache,
        config.plans.optional_headings,
      );
      if (this.iterationsThisRun === 0) {
        if (view.tasks.length === 0) {
          throw new EmptyPlanError({ file: this.options.plan.path, prd: view.prd !== null });
        }
        const earlier =
          completedEarlier(this.storedAtStart, this.options.plan.path, view) ??
          completeAtStart(this.storedAtStart, view);
        if (earlier !== null) return this.stop(earlier, view);
        await this.parallel?.recover(view);
      }
      const prepared = prepareIteration(this.state as LoopState, view, config, this.clock.now());
      this.state = prepared.state;
      const selection = prepared.selection;
      for (const id of selection.newlyFailed) {
        this.failTask(id, this.failureReasons.get(id) ?? "attempts used up");
      }

      const before = this.decide(config, view, selection, null);
      if (before.exit || this.stopper.signal.aborted) {
        return this.stop(before.reason ?? "aborted", view);
      }

      // The last iteration's outcome is saved before anything else: a parallel batch, a wait
      // (its own write), a call claimed, an agent started (the write that records it, below).
      if (this.parallel !== null && this.parallel.workers > 1 && selection.kind === "task") {
        await this.settleWrites();
        const batch = await this.parallel.run(config);
        if (batch.exit !== null) {
          return this.stop(
            batch.exit,
            await readPlanView(this.options.plan, this.cache, config.plans.optional_headings),
          );
        }
        // Nothing could start on a worker (the hourly limit holds): the wait below applies.
        if (batch.ran) continue;
      }

      const waited = await this.waitForRateLimit(config);
      if (waited) continue;
      // The fleet's call, claimed once this loop's own limit allows one (a refusal counts
      // nothing). Aborted meanwhile: the next turn's decision stops the loop.
      if (this.shared !== null) await this.settleWrites();
      const claim = await this.shared?.claim(this.stopper.signal);
      if (claim !== undefined && claim.kind !== "granted") {
        if (claim.kind === "budget") {
          this.sharedBudget = claim.usage;
          return this.stop("budget_exhausted", view);
        }
        if (claim.kind === "wait") await this.waitForSharedLimit(claim.usage, claim.waitMs);
        continue;
      }

      const task = selection.kind === "task" ? selection.task : null;
      const iteration = this.state.loop_metadata.iterations + 1;
      const attempt = selection.kind === "task" ? selection.attempt : 1;
      this.iterationInProgress = iteration;
      this.taskInProgress = task?.id ?? null;
      // The call counts when it starts, and is saved before the agent runs: a loop that crashes
      // or is killed mid-call cannot get round the hourly limit by restarting. An executor that
      // starts processes (it has `stopSurvivors`) records each before starting it, and that
      // record's write is the state with the call counted and the last iteration's end: one
      // write, not three. Any other executor gets them saved before it is called.
      this.state = {
        ...this.state,
        current_task_id: task?.id ?? null,
        rate_window: fromRateWindow(
          recordCall(toRateWindow(this.state.rate_window), this.clock.now()),
        ),
      };
      if (this.options.executor.stopSurvivors === undefined) {
        await this.saveState().catch(async (error: unknown) => {
          // The agent never ran: its claimed call is given back.
          if (claim?.kind === "granted") await this.shared?.release(claim.usage);
          throw error;
        });
      }
      this.record("iteration_start", {
        iteration,
        current_task_id: task?.id ?? null,
        total_tasks: view.tasks.length,
      });
      this.emitter.emit("iteration-start", {
        iteration,
        task,
        attempt,
        kind: task ? "task" : "wrap_up",
      });

      const request = this.requestFor(config, view, task, iteration, attempt);
      const recordProcess = this.agentProcesses.recordFor(iteration);
      let recorded = false;
      const execution = executeWithTimeout(this.options.executor, request, {
        clock: this.clock,
        timeoutMs: config.limits.iteration_timeout_minutes * 60_000,
        signal: this.stopper.signal,
        recordProcess: (agent) => {
          recorded = true;
          return recordProcess(agent);
        },
      });
      // An executor that did not record its process as it was called (it may start none, or
      // start it later): the last iteration's end is written now, not left to a record that
      // may never come. A failure stops the loop after this execution.
      const early = !recorded && this.unsavedEnd !== null ? this.writeState() : null;
      early?.catch(() => undefined);
      const executed = await execution;
      // The executor has seen its agent end: the record goes with the next write. A failed
      // write that carried the last iteration's end names that iteration.
      await this.agentProcesses.settle().catch((error: unknown) => {
        this.throwDeferredFailure();
        throw error;
      });
      if (early !== null) await this.settleWrites();
      this.state = withoutAgentProcess(this.state);
      const outcome = {
        ...executed,
        result: this.checked(executed.result, iteration, task?.id ?? null),
      };

      const usageLimit = outcome.result.usageLimit;
      // A limit is a limit only when the run did not succeed: a run that did (paid from extra
      // usage, or finished before the limit) is an iteration like any other.
      if (usageLimit !== undefined && !outcome.result.success && !outcome.aborted) {
        // The iteration ends here without counting (no attempt, no iteration): it is run again
        // after the wait, under the same number. What it cost is still spent.
        this.addCost(outcome.result.costUsd);
        const stop = !usageLimit.waitable || config.usage_limit.on_limit === "exit";
        const state = this.state;
        this.record("iteration_end", {
          iteration,
          tasks_completed: state.completed_tasks,
          tasks_failed: state.failed_tasks,
          should_exit: stop,
          exit_reason: stop ? "usage_limit" : null,
        });
        this.iterationInProgress = null;
        this.taskInProgress = null;
        if (stop) {
          this.usageLimit = toUsageLimitRecord(usageLimit);
          return this.stop("usage_limit", view);
        }
        await this.waitForUsageLimit(usageLimit);
        continue;
      }

      const after = await this.afterExecution(
        config,
        view,
        task,
        outcome.result,
        outcome.timedOut,
        iteration,
        outcome.aborted,
      );
      this.iterationInProgress = null;
      this.taskInProgress = null;
      if (outcome.aborted || this.stopper.signal.aborted) return this.stop("aborted", after);
      if (this.lastDecision?.exit && this.lastDecision.reason)
        return this.stop(this.lastDecision.reason, after);
    }
  }

  /** Completed task ids as the plan shows them now (an agent may also have unchecked one). */
  private syncCompleted(view: PlanView): LoopState {
    return withCompletedFromPlan(this.state as LoopState, view);
  }

  private failTask(taskId: string, reason: string): void {
    const state = this.state as LoopState;
    if (state.failed_tasks.includes(taskId)) return;
    const attempts = state.task_attempts?.[taskId] ?? 0;
    this.state = { ...state, failed_tasks: withIds(state.failed_tasks, [taskId]) };
    const kept = this.keptBranches.get(taskId);
    this.record("task_failed", {
      task_id: taskId,
      attempts,
      reason,
      ...(kept === undefined ? {} : { kept_branch: kept }),
    });
    this.emitter.emit("task-failed", { taskId, attempts, reason });
  }

  private decide(
    config: LoopConfig,
    view: PlanView,
    selection: ExitPolicyInput["selection"],
    signals: ResponseSignals | null,
    wrapUp: ExitPolicyInput["wrapUp"] = null,
  ): ExitDecision {
    const input = policyInputFor({
      wrapUp,
      config,
      view,
      state: this.state as LoopState,
      selection,
      signals,
      verificationPassed: this.verificationPassed,
      now: this.clock.now(),
      aborted: this.stopper.signal.aborted === true,
    });
    const decision = this.options.policy
      ? this.options.policy(input, shouldExit)
      : shouldExit(input);
    this.lastDecision = decision;
    return decision;
  }

  private async waitForRateLimit(config: LoopConfig): Promise<boolean> {
    const state = this.state as LoopState;
    const now = this.clock.now();
    const decision = checkRateLimit(
      toRateWindow(state.rate_window),
      now,
      config.limits.max_calls_per_hour,
    );
    if (decision.allowed) return false;
    this.record("rate_limit_wait", {
      reset_at: formatTimestamp(decision.resetAt),
      calls_made: decision.window.callsMade,
      max_calls_per_hour: config.limits.max_calls_per_hour,
      wait_ms: decision.waitMs,
    });
    this.emitter.emit("wait", {
      kind: "rate_limit",
      until: decision.resetAt,
      waitMs: decision.waitMs,
      message: `${decision.window.callsMade} of ${config.limits.max_calls_per_hour} calls this hour`,
    });
    await this.saveState();
    await this.clock.sleep(decision.waitMs, this.stopper.signal);
    return true;
  }

  /** Waits for the fleet's window to reset; the next turn claims again. */
  private async waitForSharedLimit(usage: SharedLimitsUsage, waitMs: number): Promise<void> {
    this.recordSharedWait(usage, waitMs);
    await this.saveState();
    await this.clock.sleep(waitMs, this.stopper.signal);
  }

  /** Waits out a usage limit. Never counts as a task failure or an iteration. */
  private async waitForUsageLimit(limit: UsageLimit): Promise<void> {
    const now = this.clock.now();
    const until =
      limit.resetAt !== null && limit.resetAt > now ? limit.resetAt : now + UNKNOWN_RESET_WAIT_MS;
    this.record("usage_limit_wait", {
      reset_at: formatTimestamp(until),
      wait_ms: until - now,
      message: limit.message,
    });
    this.emitter.emit("wait", {
      kind: "usage_limit",
      until,
      waitMs: until - now,
      message: limit.message,
    });
    await this.saveState();
    await this.clock.sleep(until - now, this.stopper.signal);
  }

  /** Books what a run cost, in this run's total and the state's. */
  private addCost(costUsd: number | undefined): void {
    const cost = costUsd ?? 0;
    this.costThisRun += cost;
    this.shared?.addCost(cost);
    const state = this.state as LoopState;
    this.state = { ...state, cost_usd: (state.cost_usd ?? 0) + cost };
  }

  private async afterExecution(
    config: LoopConfig,
    before: PlanView,
    task: LoopTask | null,
    result: ExecutionResult,
    timedOut: boolean,
    iteration: number,
    aborted: boolean,
  ): Promise<PlanView> {
    const signals = analyzeResponse(result.output, {
      completionPromise: this.options.prompt?.completionPromise ?? null,
      permissionDenials: result.permissionDenials ?? null,
    });
    let view = await readPlanView(this.options.plan, this.cache, config.plans.optional_headings);
    const wasDone = new Set(before.tasks.filter((item) => item.done).map((item) => item.id));
    const reported =
      task !== null &&
      result.taskComplete === true &&
      !view.tasks.find((item) => item.id === task.id)?.done
        ? [task.id]
        : [];
    const newlyDone = view.tasks
      .filter((item) => item.done && !wasDone.has(item.id))
      .map((item) => item.id);
    const tasksCompleted = withIds(newlyDone, reported);

    this.addCost(result.costUsd);
    const state = this.state as LoopState;
    const filesChanged = result.filesChanged ?? 0;
    const progress = tasksCompleted.length > 0 || filesChanged > 0;
    // An aborted iteration (Ctrl+C) does not count toward limits.max_iterations: the next run
    // runs it again under the same number.
    // Iterations count as they end (a parallel run's may end in another order than they began).
    let next: LoopState = aborted
      ? state
      : {
          ...state,
          loop_metadata: { ...state.loop_metadata, iterations: state.loop_metadata.iterations + 1 },
        };
    this.iterationsThisRun += 1;
    if (result.sessionId) {
      this.sessionId = result.sessionId;
      next = { ...next, session_id: result.sessionId };
    }

    // An execution the caller aborted is neither a failed attempt nor evidence for the breaker or
    // the stop detectors: stopping the agent is the user's decision, not the task's failure.
    // An answer that only asks questions is not a failed attempt either: the task waits for its
    // answer (and the loop stops with needs_input when none comes), it is not given up.
    const questionOnly =
      result.success &&
      isQuestionOnly({ signals, tasksCompleted: tasksCompleted.length, filesChanged });
    if (task !== null && !aborted && !questionOnly && !tasksCompleted.includes(task.id)) {
      const failed = !result.success;
      if (failed || !progress) {
        const attempts = (state.task_attempts?.[task.id] ?? 0) + 1;
        next = withAttempts(next, task.id, attempts);
        const reason = timedOut
          ? timeoutMessage(config.limits.iteration_timeout_minutes * 60_000)
          : failed
            ? (result.error ?? "the run failed")
            : null;
        this.lastFailure.set(
          task.id,
          reason ?? "the last attempt completed nothing and changed no file",
        );
        if (reason === null) this.failureReasons.delete(task.id);
        else this.failureReasons.set(task.id, reason);
      }
    }
    if (!aborted) {
      const observed = observeOutcome({
        config,
        state: next,
        signals,
        result,
        tasksCompleted: tasksCompleted.length,
        filesChanged,
        now: this.clock.now(),
      });
      next = observed.state;
      this.unansweredQuestions = observed.questionOnly ? signals.questions : [];
    }
    this.state = next;

    const selection = selectNextTask({
      tasks: view.tasks.map((item) =>
        tasksCompleted.includes(item.id) ? { ...item, done: true } : item,
      ),
      attempts: next.task_attempts ?? {},
      failedTaskIds: next.failed_tasks,
      maxAttempts: config.tasks.max_attempts,
    });
    for (const id of selection.newlyFailed)
      this.failTask(
        id,
        this.failureReasons.get(id) ?? `no progress in ${config.tasks.max_attempts} attempts`,
      );
    const nextTaskId = selection.kind === "task" ? selection.task.id : null;

    const text = applyPlanChanges(
      view,
      this.options.plan,
      {
        complete: reported,
        status: {
          completionIndicators: (this.state as LoopState).completion_indicators,
          currentTask: nextTaskId,
        },
      },
      this.cache,
      config.plans.optional_headings,
    );
    if (text !== view.text) {
      await this.options.plan.write(text);
      view = await readPlanView(this.options.plan, this.cache, config.plans.optional_headings);
    }
    this.state = { ...this.syncCompleted(view), current_task_id: nextTaskId };
    for (const id of tasksCompleted) this.emitter.emit("task-complete", { taskId: id, iteration });

    this.verify(config, view, result);
    const current = this.state as LoopState;
    this.deferWrite(iteration, task?.id ?? null, {
      iterations: current.loop_metadata.iterations,
      tasks_completed: current.completed_tasks.length,
      tasks_failed: current.failed_tasks.length,
      last_update: this.now(),
    });

    // A wrap-up on a finished plan (no task was given): what it did, for `plan_complete`.
    const known = new Set(before.tasks.map((item) => item.id));
    const wrapUp =
      task === null && !aborted
        ? {
            failed: !result.success,
            filesChanged,
            tasksAdded: view.tasks.filter((item) => !known.has(item.id)).length,
            concerns: this.concerns.length,
          }
        : null;
    const decision = this.decide(config, view, selection, signals, wrapUp);
    this.agentReport = agentReportOf(signals);
    this.record("iteration_end", {
      iteration,
      tasks_completed: current.completed_tasks,
      tasks_failed: current.failed_tasks,
      should_exit: decision.exit,
      exit_reason: decision.reason,
    });
    this.emitter.emit("iteration-end", {
      iteration,
      result,
      tasksCompleted,
      decision,
      state: current,
    });
    return view;
  }

  private verify(config: LoopConfig, view: PlanView, result: ExecutionResult): void {
    if (!config.verification.enabled) return;
    const concerns = result.transcript
      ? extractUserConcerns(result.transcript, {
          lookbackTurns: config.verification.lookback_turns,
        })
      : [];
    const requiredOpen = view.tasks.some((task) => !task.done && task.optional !== true);
    if (requiredOpen && concerns.length === 0) return;
    const verification = verifyCompletion({
      completedTasks: view.tasks.filter((task) => task.done),
      requirements: view.requirements,
      concerns,
      threshold: config.verification.fuzzy_match_threshold,
    });
    this.verificationPassed = verification.passed;
    this.unmetRequirements = verification.unmet.map((requirement) => requirement.text);
    this.concerns = [...verification.concerns];
    // A verdict that holds the exit back is a decision the log explains; every verdict, with
    // each requirement's match, is in verifier.log.
    if (!verification.passed) {
      this.record("verification", {
        passed: false,
        unmet: this.unmetRequirements,
        concerns: this.concerns.map(({ kind, text }) => ({ kind, text })),
      });
    }
    this.emitter.emit("verification", {
      passed: verification.passed,
      unmet: this.unmetRequirements,
      concerns: this.concerns,
      result: verification,
    });
  }

  private async stop(
    reason: ExitReason,
    view: PlanView,
    alreadyDecided = false,
  ): Promise<{ reason: ExitReason; error: Error | null; complete: boolean }> {
    void alreadyDecided;
    await this.finish(reason);
    const complete =
      view.tasks.every((task) => task.done || task.optional === true) || isCompletionReason(reason);
    return { reason, error: null, complete };
  }
}
