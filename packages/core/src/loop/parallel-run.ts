import type { LoopConfig } from "../config/loop-config.js";
import { taskDependencies } from "../plan/task-dependencies.js";
import type { ExitReason } from "../policy/exit-reasons.js";
import { checkRateLimit, recordCall } from "../policy/rate-limiter.js";
import { type SchedulableTask, scheduleTasks } from "../policy/schedule-tasks.js";
import { formatTimestamp } from "../state/iso-timestamp.js";
import { fromRateWindow, toRateWindow } from "../state/persisted-rate-window.js";
import type { ExecutionOutcome } from "./execute-with-timeout.js";
import { executeWithTimeout } from "./execute-with-timeout.js";
import type { ExecutionResult, UsageLimit } from "./executor.js";
import { mergeRequest } from "./merge-request.js";
import type { ParallelHost } from "./parallel-host.js";
import type { LoopTask, PlanView } from "./plan-view.js";
import { readPlanView } from "./plan-view.js";
import { AgentProcessRecorder, stopPreviousAgent } from "./previous-agent.js";
import { UNKNOWN_RESET_WAIT_MS } from "./reset-wait.js";
import type { ParallelOptions } from "./run-loop-options.js";
import type { SharedLimitsUsage } from "./shared-limits.js";
import { updateWorker, withoutWorker, withoutWorkers, withWorker } from "./worker-records.js";
import type { MergeConflict, TaskWorkspace, WorkspaceSave } from "./workspace.js";

/** A task a worker runs now. */
interface Worker {
  readonly task: LoopTask;
  readonly iteration: number;
  readonly attempt: number;
  /** The fleet's counts when its call was claimed (`null`: no shared limits). */
  readonly claimed: SharedLimitsUsage | null;
  /** Resolves once the worker's iteration is settled; never rejects. */
  done: Promise<void>;
  /**
   * Set once the agent ended cleanly (it succeeded, no usage limit, not stopped): the worker
   * no longer holds a slot while its work is saved and it waits for its settling, so the next
   * task may start. A failed run holds its slot until settled, so the breaker and the usage limit
   * decide before another agent is called.
   */
  freed: boolean;
}

/** What a worker's agent run left, for its settling. */
interface Finished {
  readonly worker: Worker;
  readonly workspace: TaskWorkspace;
  readonly outcome: ExecutionOutcome;
  readonly save: WorkspaceSave;
  /** Whether the task's box is checked in the working copy's plan (or the executor said so). */
  readonly done: boolean;
}

/** A promise and what resolves it (Node 20 has no `Promise.withResolvers`). */
function signal(): { readonly promise: Promise<void>; readonly resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** What {@link ParallelRun.run} ended with. */
export interface ParallelBatch {
  /** An exit the batch decided (an exit policy's, a usage limit's); `null`: the loop decides. */
  readonly exit: ExitReason | null;
  /** Whether any worker ran: `false` when none could start (the hourly limit, say). */
  readonly ran: boolean;
}

/** The tasks with what each comes after, by the plan's order and its parallel sections. */
function schedulable(view: PlanView): readonly (LoopTask & SchedulableTask)[] {
  if (view.prd !== null) return view.tasks;
  const after = taskDependencies(view.tasks);
  return view.tasks.map((task) => ({ ...task, after: after.get(task.id) ?? [] }));
}

/**
 * The workers of a parallel run (`RunLoopOptions.parallel`): starts the tasks
 * `scheduleTasks` releases, each in its own working copy, within the shared limits (the hourly
 * calls, `max_iterations`, a usage-limit pause), and settles each finished task one at a time:
 * its work saved, integrated onto the main line when its box is checked in its copy of the
 * plan, then its box checked in the main plan — or, on a conflict, rolled back, kept, and the
 * task run again from the new main line. An exit decided on any worker's iteration stops the
 * others.
 */
export class ParallelRun {
  readonly #running = new Map<string, Worker>();
  /** Resolves when a worker frees its slot before its settling (then is replaced). */
  #freed = signal();
  /** Working copies recovery reopened, for their tasks' next attempts. */
  readonly #reopened = new Map<string, TaskWorkspace>();
  /** The kept work each task's next attempt goes on from. */
  readonly #resumeFrom = new Map<string, string>();
  /** Settling is one task at a time: integrations never overlap. */
  #settling: Promise<void> = Promise.resolve();
  /**
   * Working copies being made. A settling waits for them: a task's agent starts before another
   * task's merge takes the machine (the merges are not on the way to any agent; the working
   * copies are).
   */
  readonly #opening = new Set<Promise<unknown>>();
  /**
   * Due once a slot is freed: the run's next look at what may start. A settling waits for it
   * too, so the working copies that look begins count as being made.
   */
  #look: ReturnType<typeof signal> | null = null;
  /**
   * Whether the look's claim of a fleet call is retrying through failing shared limits (for up
   * to minutes): settlings do not wait for that look meanwhile.
   */
  #claimRetrying = false;
  /** Slots freed so far, and how many of them the last look at what may start counted. */
  #frees = 0;
  #freesCounted = 0;
  /** Until when a usage limit holds new starts back (epoch ms); `null` when none does. */
  #pausedUntil: number | null = null;
  /** Until when the fleet's hourly calls hold new starts back (epoch ms); `null`: they do not. */
  #sharedWaitUntil: number | null = null;
  /** The fleet window whose wait was recorded (its reset), so each is recorded once. */
  #sharedWaitRecorded: number | null = null;
  #exit: ExitReason | null = null;
  /** A failure that must stop the loop (a state store's), raised once the workers are done. */
  #failure: { readonly error: unknown } | null = null;
  readonly #abort = new AbortController();
  #issued = 0;

  constructor(
    private readonly host: ParallelHost,
    private readonly parallel: ParallelOptions,
  ) {
    const signal = host.options.signal;
    if (signal?.aborted) this.#abort.abort();
    signal?.addEventListener("abort", () => this.#abort.abort(), { once: true });
  }

  /** How many workers may run at once. */
  get workers(): number {
    return this.parallel.workers;
  }

  /**
   * Puts right what a killed run left, before any worker starts: what is left of its workers'
   * agents is stopped, and the workspaces recover (a half-done integration completed or rolled
   * back, the working copies of open tasks reopened, the others removed with their work kept).
   */
  async recover(view: PlanView): Promise<void> {
    const host = this.host;
    const state = host.state();
    const merger = this.parallel.mergeExecutor ?? host.options.executor;
    for (const worker of state.workers ?? []) {
      const left = [
        { record: worker.agent_process, executor: host.options.executor },
        { record: worker.merge_process, executor: merger },
      ];
      for (const { record, executor } of left) {
        if (record === undefined) continue;
        const stopped = await stopPreviousAgent(record, executor);
        if (stopped !== null) host.record("previous_agent_stopped", stopped);
      }
    }
    host.setState(withoutWorkers(state));
    const given = new Set(state.failed_tasks);
    const resume = view.tasks.filter((task) => !task.done && !given.has(task.id));
    const recovery = await this.parallel.workspaces.recover({
      resume: resume.map((task) => task.id),
    });
    for (const workspace of recovery.reopened) this.#reopened.set(workspace.taskId, workspace);
    const anything =
      recovery.reopened.length +
        recovery.kept.length +
        recovery.removed.length +
        recovery.integrations.length >
      0;
    if (anything) {
      host.record("workspaces_recovered", {
        resumed: recovery.reopened.map((workspace) => workspace.taskId),
        kept: recovery.kept.map((kept) => ({ task_id: kept.taskId, branch: kept.branch })),
        removed: [...recovery.removed],
        integrations: recovery.integrations.map((integration) => ({
          task_id: integration.taskId,
          outcome: integration.outcome,
        })),
      });
    }
    await host.writeState();
  }

  /**
   * Runs workers until none runs and none can start: every task that may start is started as
   * workers free up, and each finished one settled. Returns the exit an iteration decided, or
   * `null` for the loop to decide what comes next (a wrap-up, a wait for the hourly limit).
   *
   * @throws what a worker could not survive (a state store that cannot write), once every
   *   worker has stopped.
   */
  async run(config: LoopConfig): Promise<ParallelBatch> {
    let ran = false;
    for (;;) {
      let wakeAt: number | null = null;
      try {
        if (this.#exit === null && this.#failure === null && !this.#abort.signal.aborted) {
          const started = await this.#start(config);
          ran ||= started.count > 0;
          wakeAt = started.wakeAt;
        } else {
          // Nothing starts any more: a freed slot is nothing to look at.
          this.#freesCounted = this.#frees;
        }
      } finally {
        // The slots freed before the look counted them were seen, and what it started is
        // being made.
        this.#look?.resolve();
        this.#look = null;
      }
      if (this.#running.size === 0) {
        if (this.#failure !== null) throw this.#failure.error;
        if (this.#exit === null && !this.#abort.signal.aborted && this.#paused()) {
          await this.host.clock.sleep(
            (this.#pausedUntil as number) - this.host.clock.now(),
            this.#abort.signal,
          );
          this.#pausedUntil = null;
          continue;
        }
        const sharedWait = this.#sharedWaitUntil;
        if (this.#exit === null && !this.#abort.signal.aborted && sharedWait !== null) {
          // The fleet's calls are used up and no worker runs: wait for its window, then claim again.
          this.#sharedWaitUntil = null;
          await this.host.clock.sleep(sharedWait - this.host.clock.now(), this.#abort.signal);
          continue;
        }
        return { exit: this.#exit, ran };
      }
      await this.#next(wakeAt);
    }
  }

  #paused(): boolean {
    return this.#pausedUntil !== null && this.#pausedUntil > this.host.clock.now();
  }

  /** Starts what may start now; says how many, and when to look again if a wait holds some back. */
  async #start(config: LoopConfig): Promise<{ count: number; wakeAt: number | null }> {
    const host = this.host;
    const view = await host.readView(config);
    const state = host.state();
    const now = host.clock.now();
    this.#freesCounted = this.#frees;
    const holding = [...this.#running.values()].filter((worker) => !worker.freed).length;
    let slots = this.parallel.workers - holding;
    let wakeAt: number | null = null;
    const iterationsLeft =
      config.limits.max_iterations - state.loop_metadata.iterations - this.#running.size;
    slots = Math.min(slots, iterationsLeft);
    const rate = checkRateLimit(
      toRateWindow(state.rate_window),
      now,
      config.limits.max_calls_per_hour,
    );
    if (rate.allowed) slots = Math.min(slots, rate.remaining);
    else {
      slots = 0;
      wakeAt = rate.resetAt;
    }
    // With a cost cap (the loop's, or the shared limits'), a freed slot waits for the settling:
    // the iteration's cost may reach it.
    const capped = config.limits.max_cost_usd !== null || host.shared?.budgeted === true;
    if (capped && holding < this.#running.size) {
      slots = Math.min(slots, this.parallel.workers - this.#running.size);
    }
    if (this.#paused()) {
      slots = 0;
      wakeAt = Math.min(wakeAt ?? Number.POSITIVE_INFINITY, this.#pausedUntil as number);
    }
    if (slots <= 0) return { count: 0, wakeAt };
    const schedule = scheduleTasks({
      tasks: schedulable(view),
      running: new Set(this.#running.keys()),
      slots,
      attempts: state.task_attempts ?? {},
      failedTaskIds: state.failed_tasks,
      maxAttempts: config.tasks.max_attempts,
    });
    let count = 0;
    for (const { task, attempt } of schedule.start) {
      const claim = await this.#claim();
      if (!claim.granted) {
        if (claim.wakeAt !== null) wakeAt = Math.min(wakeAt ?? claim.wakeAt, claim.wakeAt);
        break;
      }
      this.#launch(config, view, task, attempt, claim.usage);
      count += 1;
    }
    return { count, wakeAt };
  }

  /**
   * Claims the fleet's call for one start (granted at once without shared limits). Refused: a
   * spent budget stops the run, used-up calls hold starts back until the window resets, and
   * shared limits that keep failing stop new starts — the running workers finish (their calls
   * were claimed), then the run fails with the error.
   */
  async #claim(): Promise<
    | { readonly granted: true; readonly usage: SharedLimitsUsage | null }
    | { readonly granted: false; readonly wakeAt: number | null }
  > {
    const shared = this.host.shared;
    if (shared === null) return { granted: true, usage: null };
    let answer: Awaited<ReturnType<typeof shared.claim>>;
    try {
      answer = await shared.claim(this.#abort.signal, () => {
        // The settlings waiting for this look go on; what it has started is being made.
        this.#claimRetrying = true;
        this.#look?.resolve();
        this.#look = null;
      });
    } catch (error) {
      this.#failure ??= { error };
      return { granted: false, wakeAt: null };
    } finally {
      this.#claimRetrying = false;
    }
    if (answer.kind === "granted") {
      this.#sharedWaitUntil = null;
      return { granted: true, usage: answer.usage };
    }
    if (answer.kind === "budget") {
      this.host.setSharedBudget(answer.usage);
      this.#halt("budget_exhausted");
    }
    if (answer.kind !== "wait") return { granted: false, wakeAt: null };
    const until = this.host.clock.now() + answer.waitMs;
    this.#sharedWaitUntil = until;
    if (this.#sharedWaitRecorded !== answer.usage.resetAt) {
      this.#sharedWaitRecorded = answer.usage.resetAt;
      this.host.recordSharedWait(answer.usage, answer.waitMs);
    }
    return { granted: false, wakeAt: until };
  }

  /** Waits for a worker to be settled, for `wakeAt`, or for the run to be stopped. */
  async #next(wakeAt: number | null): Promise<void> {
    // A slot freed during the last look: look again at once (a settling waits for it).
    // (A slot freed while that look was claiming calls came after it counted the slots.)
    if (this.#look !== null || this.#frees !== this.#freesCounted) return;
    const timer = new AbortController();
    const stop = () => timer.abort();
    this.#abort.signal.addEventListener("abort", stop, { once: true });
    const waits: Promise<unknown>[] = [this.#freed.promise];
    for (const worker of this.#running.values()) waits.push(worker.done);
    if (wakeAt !== null) {
      const ms = Math.max(0, wakeAt - this.host.clock.now());
      waits.push(this.host.clock.sleep(ms, timer.signal).catch(() => undefined));
    }
    waits.push(
      new Promise<void>((resolve) => {
        if (timer.signal.aborted) resolve();
        timer.signal.addEventListener("abort", () => resolve(), { once: true });
      }),
    );
    try {
      await Promise.race(waits);
    } finally {
      this.#abort.signal.removeEventListener("abort", stop);
      timer.abort();
    }
  }

  /** Stops starting tasks and stops the running ones: the loop exits with `reason`. */
  #halt(reason: ExitReason): void {
    this.#exit ??= reason;
    this.#abort.abort();
  }

  #launch(
    config: LoopConfig,
    view: PlanView,
    task: LoopTask,
    attempt: number,
    claimed: SharedLimitsUsage | null,
  ): void {
    const state = this.host.state();
    this.#issued = Math.max(this.#issued, state.loop_metadata.iterations) + 1;
    const worker: Worker = {
      task,
      iteration: this.#issued,
      attempt,
      claimed,
      done: Promise.resolve(),
      freed: false,
    };
    this.#running.set(task.id, worker);
    worker.done = this.#work(config, view, worker)
      .catch((error: unknown) => {
        this.#failure ??= { error };
        this.#abort.abort();
      })
      .finally(() => {
        this.#running.delete(task.id);
      });
  }

  /** A worker's life: its working copy, its agent's run, its work saved, then its settling. */
  async #work(config: LoopConfig, view: PlanView, worker: Worker): Promise<void> {
    const host = this.host;
    const { task, iteration, attempt } = worker;
    const workspace = await this.#open(config, view, worker);
    if (workspace === null) {
      // No working copy, no agent: its claimed call is given back.
      await this.#release(worker);
      return;
    }
    host.record("iteration_start", {
      iteration,
      current_task_id: task.id,
      total_tasks: view.tasks.length,
      branch: workspace.branch,
    });
    host.emitter.emit("iteration-start", {
      iteration,
      task,
      attempt,
      kind: "task",
      workspace: { path: workspace.path, branch: workspace.branch },
    });
    const request = host.request(config, view, task, iteration, attempt, workspace);
    // The call counts when it starts, saved with the worker's record before its agent runs.
    const state = host.state();
    host.setState(
      withWorker(
        {
          ...state,
          rate_window: fromRateWindow(
            recordCall(toRateWindow(state.rate_window), host.clock.now()),
          ),
        },
        {
          task_id: task.id,
          branch: workspace.branch,
          path: workspace.path,
          iteration,
          attempt,
          started_at: formatTimestamp(host.clock.now()),
        },
      ),
    );
    await host.writeState().catch(async (error: unknown) => {
      await this.#release(worker);
      throw error;
    });
    const recorder = this.#recorder(task.id, "agent_process");
    const executed = await executeWithTimeout(host.options.executor, request, {
      clock: host.clock,
      timeoutMs: config.limits.iteration_timeout_minutes * 60_000,
      signal: this.#abort.signal,
      recordProcess: recorder.recordFor(iteration),
    });
    await recorder.settle();
    const outcome = { ...executed, result: host.checked(executed.result, iteration, task.id) };
    const clean =
      outcome.result.success && outcome.result.usageLimit === undefined && !outcome.aborted;
    // The slot is the agent's: the next task's working copy is made while this one's work is
    // saved (the save touches this working copy only).
    if (clean && !outcome.timedOut) this.#free(worker);
    const save = await this.parallel.workspaces.save(workspace, {
      message: `loop: ${task.id}, iteration ${iteration}`,
    });
    const copy = await readPlanView(workspace.plan, host.cache, config.plans.optional_headings);
    const done =
      copy.tasks.find((item) => item.id === task.id)?.done === true ||
      outcome.result.taskComplete === true;
    const finished: Finished = { worker, workspace, outcome, save, done };
    // What may follow the settling without holding the next one back (removing an integrated
    // task's working copy): the worker is done once it is.
    const after = await this.#inTurn(() => this.#settle(config, finished));
    await after?.();
  }

  /** Gives back the fleet's call claimed for a worker whose agent never ran. */
  async #release(worker: Worker): Promise<void> {
    if (worker.claimed !== null) await this.host.shared?.release(worker.claimed);
  }

  /** The worker's slot is free for the next task; the run loop looks at once. */
  #free(worker: Worker): void {
    worker.freed = true;
    this.#look ??= signal();
    this.#frees += 1;
    const freed = this.#freed;
    this.#freed = signal();
    freed.resolve();
  }

  /** Keeps the process of a task's agent (or merge agent) in the task's worker entry. */
  #recorder(taskId: string, field: "agent_process" | "merge_process"): AgentProcessRecorder {
    const host = this.host;
    return new AgentProcessRecorder({
      read: () => host.state(),
      write: (next) => {
        host.setState(next);
        return host.writeState();
      },
      now: () => formatTimestamp(host.clock.now()),
      place: {
        read: (current) => current.workers?.find((record) => record.task_id === taskId)?.[field],
        write: (current, record) =>
          updateWorker(current, taskId, (entry) => ({ ...entry, [field]: record })),
      },
    });
  }

  /**
   * Runs `work` once every settling begun before it is over and no working copy is being made;
   * the next waits for it.
   */
  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#settling.then(() => this.#opened()).then(work);
    this.#settling = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /**
   * Resolves once no working copy is being made (whether or not they could be), nor due to be
   * by a freed slot's look.
   */
  async #opened(): Promise<void> {
    for (;;) {
      if (this.#look !== null && !this.#claimRetrying) await this.#look.promise;
      else if (this.#opening.size > 0) await Promise.allSettled([...this.#opening]);
      else return;
    }
  }

  /** Settles an iteration as the host does, and stops the run when that decides an exit. */
  async #settleAndDecide(
    config: LoopConfig,
    task: LoopTask,
    result: ExecutionResult,
    timedOut: boolean,
    iteration: number,
  ): Promise<void> {
    const decision = await this.host.settle(config, task, result, timedOut, iteration, false);
    if (decision?.exit && decision.reason) this.#halt(decision.reason);
  }

  /**
   * The task's working copy: the one recovery reopened, or a new one (from the kept work of its
   * previous attempt, when it has one). `null` when none could be made: that attempt failed.
   */
  async #open(config: LoopConfig, view: PlanView, worker: Worker): Promise<TaskWorkspace | null> {
    const { task } = worker;
    const reopened = this.#reopened.get(task.id);
    try {
      if (reopened !== undefined) {
        this.#reopened.delete(task.id);
        await reopened.plan.write(view.text);
        return reopened;
      }
      const from = this.#resumeFrom.get(task.id);
      const opening = this.parallel.workspaces.open(task, { planText: view.text, from });
      this.#opening.add(opening);
      const workspace = await opening.finally(() => this.#opening.delete(opening));
      this.#resumeFrom.delete(task.id);
      return workspace;
    } catch (error) {
      this.host.recordError(error, worker.iteration, task.id);
      const message = error instanceof Error ? error.message : String(error);
      await this.#settleTurn(config, worker, {
        output: "",
        success: false,
        error: `its working copy could not be made: ${message}`,
      });
      return null;
    }
  }

  /** Settles an iteration whose agent never ran, in turn with the others. */
  async #settleTurn(config: LoopConfig, worker: Worker, result: ExecutionResult): Promise<void> {
    await this.#inTurn(() =>
      this.#settleAndDecide(config, worker.task, result, false, worker.iteration),
    );
  }

  /**
   * One finished worker's iteration, settled while no other is. Returns what remains to be done
   * once the next may be settled, if anything.
   */
  async #settle(config: LoopConfig, finished: Finished): Promise<(() => Promise<unknown>) | null> {
    const host = this.host;
    const { worker, workspace, outcome, save } = finished;
    const { task, iteration } = worker;
    const result = outcome.result;
    host.setState(withoutWorker(host.state(), task.id));
    const limit = result.usageLimit;
    if (limit !== undefined && !result.success && !outcome.aborted) {
      this.#reopened.set(task.id, workspace);
      await this.#usageLimit(config, limit, worker, result);
      return null;
    }
    if (outcome.aborted) {
      // Stopped (Ctrl+C, or another worker's exit): the work stays in its working copy, which
      // the next run reopens; the iteration does not count.
      this.#reopened.set(task.id, workspace);
      await host.settle(
        config,
        task,
        { ...result, filesChanged: save.filesChanged },
        false,
        iteration,
        true,
      );
      return null;
    }
    let settled: ExecutionResult = {
      ...result,
      filesChanged: save.filesChanged,
      taskComplete: false,
    };
    let after: (() => Promise<unknown>) | null = null;
    if (finished.done) {
      const integrated = await this.#integrate(config, finished, settled);
      settled = integrated.result;
      after = integrated.after;
    } else {
      // Not finished: the next attempt goes on from this work.
      const closed = await this.parallel.workspaces.close(workspace, { keep: true });
      if (closed.keptBranch !== null) this.#resumeFrom.set(task.id, closed.keptBranch);
      host.keepBranch(task.id, closed.keptBranch);
    }
    await this.#settleAndDecide(config, task, settled, outcome.timedOut, iteration);
    return after;
  }

  /**
   * Brings a finished task's work onto the main line; the result says what became of it, and
   * `after` removes the working copy of work integrated (it need not hold the next settling).
   */
  async #integrate(
    config: LoopConfig,
    finished: Finished,
    result: ExecutionResult,
  ): Promise<{ result: ExecutionResult; after: (() => Promise<unknown>) | null }> {
    const host = this.host;
    const { worker, workspace } = finished;
    const { task, iteration } = worker;
    const workspaces = this.parallel.workspaces;
    const merger = this.parallel.mergeExecutor;
    const integration = await workspaces.integrate(workspace, {
      message: `loop: ${task.id} ${task.title}`.trim(),
      resolve:
        merger === undefined
          ? undefined
          : (conflict) => this.#resolve(config, worker, workspace, conflict),
      signal: this.#abort.signal,
    });
    const event = {
      taskId: task.id,
      iteration,
      branch: workspace.branch,
    };
    if (integration.kind === "integrated") {
      host.record("task_integrated", {
        task_id: task.id,
        iteration,
        branch: workspace.branch,
        commit: integration.commit,
        files_changed: integration.filesChanged,
        resolved: integration.resolved,
      });
      host.emitter.emit("integration", {
        ...event,
        outcome: "integrated",
        commit: integration.commit,
        files: [],
      });
      host.keepBranch(task.id, null);
      return {
        result: { ...result, taskComplete: true },
        after: () => workspaces.close(workspace, { keep: false }),
      };
    }
    const closed = await workspaces.close(workspace, { keep: true });
    const kept = closed.keptBranch ?? integration.keptBranch;
    host.keepBranch(task.id, kept);
    if (integration.kind === "conflict") {
      host.record("merge_conflict", {
        task_id: task.id,
        iteration,
        files: [...integration.files],
        kept_branch: kept,
        merge_agent: merger !== undefined,
      });
      host.emitter.emit("integration", {
        ...event,
        outcome: "conflict",
        commit: null,
        files: integration.files,
      });
      // Run again from the new main line: the kept work is not where it goes on from.
      return {
        result: {
          ...result,
          success: false,
          error: `its work conflicts with the main line in ${integration.files.join(", ")} (kept on branch ${kept}); the next attempt, if it has one left, starts from the new main line`,
        },
        after: null,
      };
    }
    host.emitter.emit("integration", { ...event, outcome: "refused", commit: null, files: [] });
    this.#resumeFrom.set(task.id, kept);
    return {
      result: {
        ...result,
        success: false,
        error: `its work could not be brought onto the main line: ${integration.message} (kept on branch ${kept})`,
      },
      after: null,
    };
  }

  /** Runs the merge agent on a conflicted merge; its call and cost count like any other. */
  async #resolve(
    config: LoopConfig,
    worker: Worker,
    workspace: TaskWorkspace,
    conflict: MergeConflict,
  ): Promise<void> {
    const host = this.host;
    const merger = this.parallel.mergeExecutor;
    if (merger === undefined) return;
    await this.#claimMergeCall();
    const view = await host.readView(config);
    const state = host.state();
    // The worker's entry is back while its merge agent runs: a run killed meanwhile leaves it,
    // and the next run stops that agent before it rolls the resolution back.
    host.setState(
      withWorker(
        {
          ...state,
          rate_window: fromRateWindow(
            recordCall(toRateWindow(state.rate_window), host.clock.now()),
          ),
        },
        {
          task_id: worker.task.id,
          branch: workspace.branch,
          path: conflict.path,
          iteration: worker.iteration,
          attempt: worker.attempt,
          started_at: formatTimestamp(host.clock.now()),
        },
      ),
    );
    await host.writeState();
    const recorder = this.#recorder(worker.task.id, "merge_process");
    const request = mergeRequest({
      task: worker.task,
      iteration: worker.iteration,
      terminalId: host.terminalId,
      plan: { path: host.options.plan.path, text: view.text },
      conflict,
      branch: workspace.branch,
    });
    let outcome: ExecutionOutcome;
    try {
      outcome = await executeWithTimeout(merger, request, {
        clock: host.clock,
        timeoutMs: config.limits.iteration_timeout_minutes * 60_000,
        signal: this.#abort.signal,
        recordProcess: recorder.recordFor(worker.iteration),
      });
    } finally {
      await recorder.settle();
      host.setState(withoutWorker(host.state(), worker.task.id));
    }
    host.addCost(outcome.result.costUsd);
    if (!outcome.result.success) {
      throw new Error(outcome.result.error ?? "the merge agent's run failed");
    }
  }

  /**
   * Claims the fleet's call for a merge agent. Refused (or failing), the merge agent does not
   * run: this throws, and the conflict is rolled back like any unresolved one.
   */
  async #claimMergeCall(): Promise<void> {
    const shared = this.host.shared;
    if (shared === null) return;
    const answer = await shared.claim(this.#abort.signal);
    if (answer.kind === "granted") return;
    if (answer.kind === "budget") {
      this.host.setSharedBudget(answer.usage);
      this.#halt("budget_exhausted");
    }
    const why =
      answer.kind === "aborted"
        ? "the run is stopping"
        : answer.kind === "budget"
          ? "the shared budget is spent"
          : "the fleet's calls this hour are used up";
    throw new Error(`the merge agent was not called: ${why}`);
  }

  /** A worker hit a usage limit: new starts wait for its reset, or the loop exits. */
  async #usageLimit(
    config: LoopConfig,
    limit: UsageLimit,
    worker: Worker,
    result: ExecutionResult,
  ): Promise<void> {
    const host = this.host;
    // The iteration does not count (no attempt, no iteration); what it cost is spent.
    host.addCost(result.costUsd);
    const stop = !limit.waitable || config.usage_limit.on_limit === "exit";
    const state = host.state();
    host.record("iteration_end", {
      iteration: worker.iteration,
      tasks_completed: state.completed_tasks,
      tasks_failed: state.failed_tasks,
      should_exit: stop,
      exit_reason: stop ? "usage_limit" : null,
    });
    await host.writeState();
    if (stop) {
      host.setUsageLimit(limit);
      this.#halt("usage_limit");
      return;
    }
    const now = host.clock.now();
    const until =
      limit.resetAt !== null && limit.resetAt > now ? limit.resetAt : now + UNKNOWN_RESET_WAIT_MS;
    if (this.#pausedUntil !== null && this.#pausedUntil >= until) return;
    this.#pausedUntil = until;
    host.record("usage_limit_wait", {
      reset_at: formatTimestamp(until),
      wait_ms: until - now,
      message: limit.message,
    });
    host.emitter.emit("wait", {
      kind: "usage_limit",
      until,
      waitMs: until - now,
      message: limit.message,
    });
  }
}
