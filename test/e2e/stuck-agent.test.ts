import { runLoop } from "@loop/core";
import {
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  makesNoProgress,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { callsOf, logOf, START, taskList } from "./support.js";

// Scenario 2: an agent that runs but never gets anywhere must not burn money forever. The
// circuit breaker opens on exactly the `no_progress_loops`-th iteration without progress.

function noProgressEnd(iteration: number, failed: string[], exit: boolean) {
  return [
    "iteration_end",
    {
      iteration,
      tasks_completed: [],
      tasks_failed: failed,
      should_exit: exit,
      exit_reason: exit ? "circuit_open" : null,
    },
  ];
}

describe("scenario 2: a stuck agent", () => {
  it("opens the circuit after exactly no_progress_loops (5) calls when attempts are plenty", async () => {
    const plan = memoryPlan(taskList(5), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(makesNoProgress(), { clock });
    const logger = new MemoryLogger();

    const result = await runLoop({
      plan,
      executor,
      store: new MemoryStateStore(),
      logger,
      clock,
      config: { tasks: { max_attempts: 10 } },
    });

    expect(executor.calls).toHaveLength(5);
    expect(callsOf(executor)).toEqual(
      [1, 2, 3, 4, 5].map((n) => ({ task: "TASK-001", iteration: n, attempt: n, kind: "task" })),
    );
    const start = (iteration: number) => [
      "iteration_start",
      { iteration, current_task_id: "TASK-001", total_tasks: 5 },
    ];
    expect(logOf(logger.events)).toEqual([
      // checkConfig's warning, logged first: with max_attempts 10 the breaker opens before a
      // task is ever skipped, which is just what this test wants.
      [
        "config_warning",
        {
          code: "BREAKER_OPENS_BEFORE_TASK_SKIP",
          path: ["circuit_breaker", "no_progress_loops"],
          message: expect.stringContaining(
            "circuit_breaker.no_progress_loops (5) is not above tasks.max_attempts (10)",
          ),
        },
      ],
      start(1),
      noProgressEnd(1, [], false),
      start(2),
      noProgressEnd(2, [], false),
      start(3),
      noProgressEnd(3, [], false),
      start(4),
      noProgressEnd(4, [], false),
      start(5),
      noProgressEnd(5, [], true),
      [
        "loop_exit",
        {
          total_iterations: 5,
          total_tasks_completed: 0,
          exit_reason: "circuit_open",
          final_state: result.state,
        },
      ],
    ]);
    expect(result).toMatchObject({
      exitReason: "circuit_open",
      complete: false,
      iterations: 5,
      tasksCompleted: [],
      tasksFailed: [],
    });
    expect(result.state).toMatchObject({
      task_attempts: { "TASK-001": 5 },
      circuit_breaker: { state: "OPEN", trip: "no_progress", no_progress_streak: 5 },
      run: { status: "exited", exit_reason: "circuit_open" },
    });
    expect(plan.text).toBe(taskList(5));
  });

  it("with the defaults, skips a task after 3 attempts and still stops within 5 no-progress calls", async () => {
    const plan = memoryPlan(taskList(5), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(makesNoProgress(), { clock });
    const logger = new MemoryLogger();

    const result = await runLoop({
      plan,
      executor,
      store: new MemoryStateStore(),
      logger,
      clock,
    });

    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
      { task: "TASK-001", iteration: 2, attempt: 2, kind: "task" },
      { task: "TASK-001", iteration: 3, attempt: 3, kind: "task" },
      { task: "TASK-002", iteration: 4, attempt: 1, kind: "task" },
      { task: "TASK-002", iteration: 5, attempt: 2, kind: "task" },
    ]);
    const start = (iteration: number, task: string) => [
      "iteration_start",
      { iteration, current_task_id: task, total_tasks: 5 },
    ];
    expect(logOf(logger.events)).toEqual([
      start(1, "TASK-001"),
      noProgressEnd(1, [], false),
      start(2, "TASK-001"),
      noProgressEnd(2, [], false),
      start(3, "TASK-001"),
      [
        "task_failed",
        {
          task_id: "TASK-001",
          attempts: 3,
          // The attempts ran without an error: the outcome is the reason.
          reason: "no progress in 3 attempts",
        },
      ],
      noProgressEnd(3, ["TASK-001"], false),
      start(4, "TASK-002"),
      noProgressEnd(4, ["TASK-001"], false),
      start(5, "TASK-002"),
      noProgressEnd(5, ["TASK-001"], true),
      [
        "loop_exit",
        {
          total_iterations: 5,
          total_tasks_completed: 0,
          exit_reason: "circuit_open",
          final_state: result.state,
        },
      ],
    ]);
    expect(logger.ofType("task_failed")).toHaveLength(1);
    expect(result).toMatchObject({
      exitReason: "circuit_open",
      complete: false,
      iterations: 5,
      tasksCompleted: [],
      tasksFailed: ["TASK-001"],
    });
    expect(result.state).toMatchObject({
      failed_tasks: ["TASK-001"],
      task_attempts: { "TASK-001": 3, "TASK-002": 2 },
      circuit_breaker: { state: "OPEN", trip: "no_progress" },
    });
  });
});
