import { runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  fails,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { callsOf, logOf, START, seedPlan } from "./support.js";

// Scenario 4: a task that fails three times (tasks.max_attempts, default 3) is moved to
// failed_tasks, reported once, and the loop goes on with the next tasks.

async function failThriceThenComplete(message: string) {
  const plan = memoryPlan(seedPlan(3), { path: "plan.md" });
  const clock = createTestClock({ start: START });
  const executor = createScriptedExecutor(
    [
      fails(message),
      fails(message),
      fails(message),
      completesTask(),
      completesTask({ exitSignal: true }),
    ],
    { clock },
  );
  const logger = new MemoryLogger();
  const result = await runLoop({ plan, executor, store: new MemoryStateStore(), logger, clock });
  return { plan, executor, logger, result };
}

const expectedCalls = [
  { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
  { task: "TASK-001", iteration: 2, attempt: 2, kind: "task" },
  { task: "TASK-001", iteration: 3, attempt: 3, kind: "task" },
  { task: "TASK-002", iteration: 4, attempt: 1, kind: "task" },
  { task: "TASK-003", iteration: 5, attempt: 1, kind: "task" },
];

describe("scenario 4: a task failing 3 times, then skipped", () => {
  it("records the attempts, fails TASK-001 once, runs the rest, and stops with no_runnable_tasks", async () => {
    const { plan, executor, logger, result } =
      await failThriceThenComplete("tsc exited with code 2");

    expect(callsOf(executor)).toEqual(expectedCalls);
    // The second and third attempts are told why the previous one failed.
    expect(executor.requests[1]?.prompt).toContain("tsc exited with code 2");

    const start = (iteration: number, task: string) => [
      "iteration_start",
      { iteration, current_task_id: task, total_tasks: 3 },
    ];
    const end = (iteration: number, completed: string[], failed: string[], exit = false) => [
      "iteration_end",
      {
        iteration,
        tasks_completed: completed,
        tasks_failed: failed,
        should_exit: exit,
        exit_reason: exit ? "no_runnable_tasks" : null,
      },
    ];
    expect(logOf(logger.events)).toEqual([
      start(1, "TASK-001"),
      end(1, [], []),
      start(2, "TASK-001"),
      end(2, [], []),
      start(3, "TASK-001"),
      [
        "task_failed",
        // docs/state-and-logs.md, task_failed.reason: "Why it failed: the last attempt's error
        // or outcome" (example: "tests still fail").
        { task_id: "TASK-001", attempts: 3, reason: "tsc exited with code 2" },
      ],
      end(3, [], ["TASK-001"]),
      start(4, "TASK-002"),
      end(4, ["TASK-002"], ["TASK-001"]),
      start(5, "TASK-003"),
      // TASK-001 is still open and required: the gate cannot pass, and nothing can run.
      end(5, ["TASK-002", "TASK-003"], ["TASK-001"], true),
      [
        "loop_exit",
        {
          total_iterations: 5,
          total_tasks_completed: 2,
          exit_reason: "no_runnable_tasks",
          final_state: result.state,
        },
      ],
    ]);
    expect(logger.ofType("task_failed")).toHaveLength(1);

    expect(result).toMatchObject({
      exitReason: "no_runnable_tasks",
      complete: false,
      iterations: 5,
      tasksCompleted: ["TASK-002", "TASK-003"],
      tasksFailed: ["TASK-001"],
    });
    expect(result.state).toMatchObject({
      current_task_id: null,
      completed_tasks: ["TASK-002", "TASK-003"],
      failed_tasks: ["TASK-001"],
      task_attempts: { "TASK-001": 3 },
      circuit_breaker: { state: "CLOSED", no_progress_streak: 0, same_error_streak: 0 },
    });
    expect(plan.text).toContain("- [ ] TASK-001");
    expect(plan.text).toContain("- [x] TASK-002");
    expect(plan.text).toContain("- [x] TASK-003");
  });

  it("a failing test command is a failed attempt, not test saturation: the loop still moves on", async () => {
    // fails()'s output is "Error: npm test exited with code 1". A failed run is not a test-only
    // answer: three failed attempts must skip the task, not stop the loop with test_saturation.
    const { executor, logger, result } = await failThriceThenComplete(
      "npm test exited with code 1",
    );

    expect(callsOf(executor)).toEqual(expectedCalls);
    expect(logger.ofType("task_failed").map((event) => event.payload.task_id)).toEqual([
      "TASK-001",
    ]);
    expect(result).toMatchObject({
      exitReason: "no_runnable_tasks",
      complete: false,
      tasksCompleted: ["TASK-002", "TASK-003"],
      tasksFailed: ["TASK-001"],
    });
  });
});
