import { createLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { callsOf, logOf, START, seedPlan } from "./support.js";

// Scenario 7: limits.max_calls_per_hour caps agent calls per UTC clock hour. Reaching it is
// not an exit: the loop waits for the next hour, and the waits are not iterations.

const hour = 3_600_000;
const at = (hours: number, minutes = 0) => START.getTime() + hours * hour + minutes * 60_000;

describe("scenario 7: the hourly call limit", () => {
  it("max_calls_per_hour 2 over 5 tasks: waits to each next UTC hour, then finishes every task", async () => {
    // 10:20 UTC: the first window has 40 minutes left.
    const clock = createTestClock({ start: at(0, 20) });
    const plan = memoryPlan(seedPlan(5), { path: "plan.md" });
    const executor = createScriptedExecutor(
      [
        completesTask(),
        completesTask(),
        completesTask(),
        completesTask(),
        completesTask({ exitSignal: true }),
      ],
      { clock },
    );
    const logger = new MemoryLogger();
    const waits: unknown[] = [];
    const loop = createLoop({
      plan,
      executor,
      store: new MemoryStateStore(),
      logger,
      clock,
      config: { limits: { max_calls_per_hour: 2 } },
    });
    loop.on("wait", (event) => waits.push(event));

    const result = await loop.run();

    expect(callsOf(executor)).toEqual(
      [1, 2, 3, 4, 5].map((n) => ({
        task: `TASK-00${n}`,
        iteration: n,
        attempt: 1,
        kind: "task",
      })),
    );
    expect(executor.calls.map((call) => call.at)).toEqual([
      at(0, 20),
      at(0, 20),
      at(1),
      at(1),
      at(2),
    ]);

    const start = (iteration: number) => [
      "iteration_start",
      { iteration, current_task_id: `TASK-00${iteration}`, total_tasks: 5 },
    ];
    const end = (iteration: number) => [
      "iteration_end",
      {
        iteration,
        tasks_completed: [1, 2, 3, 4, 5].slice(0, iteration).map((n) => `TASK-00${n}`),
        tasks_failed: [],
        should_exit: iteration === 5,
        exit_reason: iteration === 5 ? "all_tasks_complete" : null,
      },
    ];
    expect(logOf(logger.events)).toEqual([
      start(1),
      end(1),
      start(2),
      end(2),
      [
        "rate_limit_wait",
        {
          reset_at: new Date(at(1)).toISOString(),
          calls_made: 2,
          max_calls_per_hour: 2,
          wait_ms: 40 * 60_000,
        },
      ],
      start(3),
      end(3),
      start(4),
      end(4),
      [
        "rate_limit_wait",
        {
          reset_at: new Date(at(2)).toISOString(),
          calls_made: 2,
          max_calls_per_hour: 2,
          wait_ms: hour,
        },
      ],
      start(5),
      end(5),
      [
        "loop_exit",
        {
          total_iterations: 5,
          total_tasks_completed: 5,
          exit_reason: "all_tasks_complete",
          final_state: result.state,
        },
      ],
    ]);
    expect(waits).toEqual([
      { kind: "rate_limit", until: at(1), waitMs: 40 * 60_000, message: "2 of 2 calls this hour" },
      { kind: "rate_limit", until: at(2), waitMs: hour, message: "2 of 2 calls this hour" },
    ]);
    expect(result).toMatchObject({
      exitReason: "all_tasks_complete",
      complete: true,
      iterations: 5,
      tasksCompleted: ["TASK-001", "TASK-002", "TASK-003", "TASK-004", "TASK-005"],
    });
    expect(result.state).toMatchObject({
      loop_metadata: { iterations: 5 },
      rate_window: { window_start: new Date(at(2)).toISOString(), calls_made: 1 },
    });
  });
});
