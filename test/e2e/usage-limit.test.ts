import { createLoop, runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  hitsUsageLimit,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { callsOf, logOf, START, seedPlan } from "./support.js";

// Scenario 6: the agent's provider stops a run at a usage limit. The loop waits for the reset
// (never counting it as an attempt or an iteration) and runs the same task again; with
// `usage_limit.on_limit: exit`, or a limit that waiting cannot lift, it stops with usage_limit.

const twoHoursLater = new Date(START.getTime() + 2 * 3_600_000);
const message = "Claude usage limit reached";
const iterationTimeoutMs = 15 * 60_000;

describe("scenario 6: a usage limit mid-run", () => {
  it("waits for the reset once, counts no attempt, re-runs the same task and completes", async () => {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(
      [
        completesTask(),
        hitsUsageLimit(twoHoursLater, { message }),
        completesTask({ exitSignal: true }),
      ],
      { clock },
    );
    const logger = new MemoryLogger();
    const waits: unknown[] = [];

    const loop = createLoop({ plan, executor, store: new MemoryStateStore(), logger, clock });
    loop.on("wait", (event) => waits.push(event));
    const result = await loop.run();

    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
      { task: "TASK-002", iteration: 2, attempt: 1, kind: "task" },
      // The same task, the same iteration and the same attempt, after the reset.
      { task: "TASK-002", iteration: 2, attempt: 1, kind: "task" },
    ]);
    expect(executor.calls.map((call) => call.at)).toEqual([
      START.getTime(),
      START.getTime(),
      twoHoursLater.getTime(),
    ]);
    // The clock slept the iteration timeouts (cut short by each answer) and the two hours.
    expect(clock.sleeps).toEqual([
      iterationTimeoutMs,
      iterationTimeoutMs,
      2 * 3_600_000,
      iterationTimeoutMs,
    ]);
    expect(clock.now()).toBe(twoHoursLater.getTime());

    const start = (iteration: number, task: string) => [
      "iteration_start",
      { iteration, current_task_id: task, total_tasks: 2 },
    ];
    expect(logOf(logger.events)).toEqual([
      start(1, "TASK-001"),
      [
        "iteration_end",
        {
          iteration: 1,
          tasks_completed: ["TASK-001"],
          tasks_failed: [],
          should_exit: false,
          exit_reason: null,
        },
      ],
      start(2, "TASK-002"),
      // The iteration the limit stopped ends without counting: no attempt, no iteration.
      [
        "iteration_end",
        {
          iteration: 2,
          tasks_completed: ["TASK-001"],
          tasks_failed: [],
          should_exit: false,
          exit_reason: null,
        },
      ],
      [
        "usage_limit_wait",
        { reset_at: twoHoursLater.toISOString(), wait_ms: 2 * 3_600_000, message },
      ],
      // Iteration 2 runs again after the wait, under the same number: it is not counted twice.
      start(2, "TASK-002"),
      [
        "iteration_end",
        {
          iteration: 2,
          tasks_completed: ["TASK-001", "TASK-002"],
          tasks_failed: [],
          should_exit: true,
          exit_reason: "all_tasks_complete",
        },
      ],
      [
        "loop_exit",
        {
          total_iterations: 2,
          total_tasks_completed: 2,
          exit_reason: "all_tasks_complete",
          final_state: result.state,
        },
      ],
    ]);
    expect(waits).toEqual([
      {
        kind: "usage_limit",
        until: twoHoursLater.getTime(),
        waitMs: 2 * 3_600_000,
        message,
      },
    ]);
    expect(result).toMatchObject({
      exitReason: "all_tasks_complete",
      complete: true,
      iterations: 2,
      tasksCompleted: ["TASK-001", "TASK-002"],
      tasksFailed: [],
    });
    expect(result.state).toMatchObject({
      task_attempts: {},
      circuit_breaker: { state: "CLOSED", no_progress_streak: 0, same_error_streak: 0 },
      loop_metadata: { iterations: 2 },
    });
  });

  async function runUntilLimit(options: {
    readonly waitable: boolean;
    readonly onLimit?: "wait" | "exit";
  }) {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(
      [
        completesTask(),
        hitsUsageLimit(twoHoursLater, { message, waitable: options.waitable }),
        completesTask({ exitSignal: true }),
      ],
      { clock },
    );
    const logger = new MemoryLogger();
    const result = await runLoop({
      plan,
      executor,
      store: new MemoryStateStore(),
      logger,
      clock,
      ...(options.onLimit ? { config: { usage_limit: { on_limit: options.onLimit } } } : {}),
    });
    return { clock, executor, logger, result };
  }

  function expectUsageLimitExit(
    run: Awaited<ReturnType<typeof runUntilLimit>>,
    waitable: boolean,
  ): void {
    const { clock, executor, logger, result } = run;
    // The limit that stopped the loop is kept, so a person can tell when (or whether) it lifts.
    const limit = { reset_at: twoHoursLater.toISOString(), waitable, message };
    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
      { task: "TASK-002", iteration: 2, attempt: 1, kind: "task" },
    ]);
    expect(clock.now()).toBe(START.getTime());
    expect(logOf(logger.events)).toEqual([
      ["iteration_start", { iteration: 1, current_task_id: "TASK-001", total_tasks: 2 }],
      [
        "iteration_end",
        {
          iteration: 1,
          tasks_completed: ["TASK-001"],
          tasks_failed: [],
          should_exit: false,
          exit_reason: null,
        },
      ],
      ["iteration_start", { iteration: 2, current_task_id: "TASK-002", total_tasks: 2 }],
      [
        "iteration_end",
        {
          iteration: 2,
          tasks_completed: ["TASK-001"],
          tasks_failed: [],
          should_exit: true,
          exit_reason: "usage_limit",
        },
      ],
      [
        "loop_exit",
        {
          total_iterations: 1,
          total_tasks_completed: 1,
          exit_reason: "usage_limit",
          final_state: result.state,
          usage_limit: limit,
        },
      ],
    ]);
    expect(result).toMatchObject({
      exitReason: "usage_limit",
      complete: false,
      iterations: 1,
      tasksCompleted: ["TASK-001"],
      error: null,
    });
    expect(result.state).toMatchObject({
      task_attempts: {},
      run: { status: "exited", exit_reason: "usage_limit", usage_limit: limit },
    });
  }

  it("usage_limit.on_limit: exit stops with usage_limit", async () => {
    expectUsageLimitExit(await runUntilLimit({ waitable: true, onLimit: "exit" }), true);
  });

  it("a limit that waiting cannot lift (a spend cap) stops with usage_limit", async () => {
    expectUsageLimitExit(await runUntilLimit({ waitable: false }), false);
  });
});

describe("a limit is a limit only when the run did not succeed", () => {
  it("a successful run that reports a limit (paid from extra usage) counts as an iteration, with no wait", async () => {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const limit = hitsUsageLimit(twoHoursLater, { message }).usageLimit;
    const executor = createScriptedExecutor(
      [
        { ...completesTask(), costUsd: 0.25, usageLimit: limit },
        completesTask({ exitSignal: true }),
      ],
      { clock },
    );
    const result = await runLoop({ plan, executor, store: new MemoryStateStore(), clock });

    expect(callsOf(executor).map((call) => call.task)).toEqual(["TASK-001", "TASK-002"]);
    expect(result).toMatchObject({
      exitReason: "all_tasks_complete",
      iterations: 2,
      costUsd: 0.25,
    });
    expect(result.state?.cost_usd).toBe(0.25);
    expect(clock.sleeps).not.toContain(2 * 3_600_000);
  });

  it("a run stopped by a limit is run again after the wait, and what it cost is still booked", async () => {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(
      [
        { ...hitsUsageLimit(twoHoursLater, { message }), costUsd: 0.1 },
        { ...completesTask(), costUsd: 0.25 },
        completesTask({ exitSignal: true }),
      ],
      { clock },
    );
    const result = await runLoop({ plan, executor, store: new MemoryStateStore(), clock });

    expect(callsOf(executor).map((call) => call.task)).toEqual([
      "TASK-001",
      "TASK-001",
      "TASK-002",
    ]);
    expect(result).toMatchObject({ exitReason: "all_tasks_complete", iterations: 2 });
    expect(result.costUsd).toBeCloseTo(0.35, 10);
    expect(result.state?.cost_usd).toBeCloseTo(0.35, 10);
    expect(clock.sleeps).toContain(2 * 3_600_000);
  });
});
