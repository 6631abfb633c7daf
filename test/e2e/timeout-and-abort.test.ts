import { runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  hangs,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { callsOf, logOf, START, seedPlan } from "./support.js";

describe("scenario 8: the iteration timeout", () => {
  it("aborts a hanging execution after iteration_timeout_minutes, counts a failed attempt, and the next attempt completes", async () => {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(
      [hangs(), completesTask(), completesTask({ exitSignal: true })],
      { clock },
    );
    const logger = new MemoryLogger();

    const result = await runLoop({
      plan,
      executor,
      store: new MemoryStateStore(),
      logger,
      clock,
      config: { limits: { iteration_timeout_minutes: 1 } },
    });

    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
      { task: "TASK-001", iteration: 2, attempt: 2, kind: "task" },
      { task: "TASK-002", iteration: 3, attempt: 1, kind: "task" },
    ]);
    expect(executor.calls.map((call) => call.signalAborted)).toEqual([true, false, false]);
    // The hanging call was cut off after one minute of virtual time.
    expect(executor.calls.map((call) => call.at)).toEqual([
      START.getTime(),
      START.getTime() + 60_000,
      START.getTime() + 60_000,
    ]);
    // The retry is told why the first attempt failed.
    expect(executor.requests[1]?.prompt).toContain("timed out after 1 minute");

    const end = (iteration: number, completed: string[], exit = false) => [
      "iteration_end",
      {
        iteration,
        tasks_completed: completed,
        tasks_failed: [],
        should_exit: exit,
        exit_reason: exit ? "all_tasks_complete" : null,
      },
    ];
    expect(logOf(logger.events)).toEqual([
      ["iteration_start", { iteration: 1, current_task_id: "TASK-001", total_tasks: 2 }],
      end(1, []),
      ["iteration_start", { iteration: 2, current_task_id: "TASK-001", total_tasks: 2 }],
      end(2, ["TASK-001"]),
      ["iteration_start", { iteration: 3, current_task_id: "TASK-002", total_tasks: 2 }],
      end(3, ["TASK-001", "TASK-002"], true),
      [
        "loop_exit",
        {
          total_iterations: 3,
          total_tasks_completed: 2,
          exit_reason: "all_tasks_complete",
          final_state: result.state,
        },
      ],
    ]);
    expect(result).toMatchObject({
      exitReason: "all_tasks_complete",
      complete: true,
      iterations: 3,
      tasksCompleted: ["TASK-001", "TASK-002"],
    });
    // The timed-out attempt is counted against TASK-001.
    expect(result.state).toMatchObject({ task_attempts: { "TASK-001": 1 } });
  });
});

describe("scenario 9: abort mid-execution", () => {
  it("resolves with aborted, writes the state and logs loop_exit", async () => {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const controller = new AbortController();
    const hang = hangs();
    const executor = createScriptedExecutor(
      [
        completesTask(),
        (request, context) => {
          // The user presses Ctrl+C while the agent works on TASK-002.
          queueMicrotask(() => controller.abort());
          return hang(request, context);
        },
      ],
      { clock },
    );
    const logger = new MemoryLogger();
    const store = new MemoryStateStore();

    const running = runLoop({
      plan,
      executor,
      store,
      logger,
      clock,
      signal: controller.signal,
      terminalId: "term_001",
    });
    await expect(running).resolves.toMatchObject({ exitReason: "aborted" });
    const result = await running;

    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
      { task: "TASK-002", iteration: 2, attempt: 1, kind: "task" },
    ]);
    expect(executor.calls.map((call) => call.signalAborted)).toEqual([false, true]);
    // No wait ran its course: the abort ended the hanging call at once.
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
          exit_reason: "aborted",
        },
      ],
      [
        "loop_exit",
        {
          // The aborted iteration 2 does not count: the next run runs it again as iteration 2.
          total_iterations: 1,
          total_tasks_completed: 1,
          exit_reason: "aborted",
          final_state: result.state,
        },
      ],
    ]);
    expect(result).toMatchObject({
      exitReason: "aborted",
      complete: false,
      iterations: 2,
      tasksCompleted: ["TASK-001"],
      error: null,
    });
    const stored = JSON.parse((await store.get("term_001", "loop_state")) ?? "null");
    expect(stored).toEqual(result.state);
    expect(stored).toMatchObject({
      completed_tasks: ["TASK-001"],
      loop_metadata: { iterations: 1 },
      run: { status: "exited", exit_reason: "aborted" },
    });
    // The lock is released: another loop can take the terminal.
    const lock = await store.lock("term_001");
    await lock.release();
  });

  it("an aborted attempt is not counted against the task: the resumed run retries it as attempt 1", async () => {
    // The caller stopped the agent; the task did not fail (as with a usage limit, which
    // "never counts as a task failure"). Ctrl+C three times must not skip a task.
    const plan = memoryPlan(seedPlan(1), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const store = new MemoryStateStore();
    const controller = new AbortController();
    const hang = hangs();
    const first = createScriptedExecutor(
      (request, context) => {
        queueMicrotask(() => controller.abort());
        return hang(request, context);
      },
      { clock },
    );
    const aborted = await runLoop({
      plan,
      executor: first,
      store,
      clock,
      signal: controller.signal,
    });
    expect(aborted.exitReason).toBe("aborted");
    expect(aborted.state?.task_attempts ?? {}).toEqual({});
    expect(aborted.state?.circuit_breaker).toMatchObject({
      no_progress_streak: 0,
      same_error_streak: 0,
      last_error_fingerprint: null,
    });

    const second = createScriptedExecutor(completesTask({ exitSignal: true }), { clock });
    await runLoop({ plan, executor: second, store, clock });
    // Neither an attempt nor an iteration was used up: the retry is iteration 1, attempt 1.
    expect(callsOf(second)[0]).toEqual({
      task: "TASK-001",
      iteration: 1,
      attempt: 1,
      kind: "task",
    });
  });

  it("an already aborted signal runs nothing and exits aborted", async () => {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(completesTask(), { clock });
    const logger = new MemoryLogger();

    const result = await runLoop({
      plan,
      executor,
      store: new MemoryStateStore(),
      logger,
      clock,
      signal: AbortSignal.abort(),
    });

    expect(executor.calls).toEqual([]);
    expect(logOf(logger.events)).toEqual([
      [
        "loop_exit",
        {
          total_iterations: 0,
          total_tasks_completed: 0,
          exit_reason: "aborted",
          final_state: result.state,
        },
      ],
    ]);
    expect(result).toMatchObject({ exitReason: "aborted", complete: false, iterations: 0 });
    expect(result.state?.run).toMatchObject({ status: "exited", exit_reason: "aborted" });
  });
});
