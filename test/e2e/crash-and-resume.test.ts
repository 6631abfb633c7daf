import { runLoop, type StateStore } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { callsOf, logOf, START, seedPlan, withSet } from "./support.js";

// Scenario 10: the store fails a write mid-run (a full disk, a crash), runLoop resolves with
// state_error, and a second runLoop on the same store picks up where the first left off.

/** A store whose `loop_state` write number `failAt` (from 1) throws, once. */
function failingOnce(inner: MemoryStateStore, failAt: number): StateStore {
  let writes = 0;
  return withSet(inner, async (terminalId, key, text) => {
    if (key === "loop_state") {
      writes += 1;
      if (writes === failAt) throw new Error("ENOSPC: no space left on device");
    }
    await inner.set(terminalId, key, text);
  });
}

async function crashAfterIteration3() {
  const plan = memoryPlan(seedPlan(4), { path: "plan.md" });
  const clock = createTestClock({ start: START });
  const inner = new MemoryStateStore();
  // loop_state writes: 1 at start, then one per iteration, before the agent runs: the call
  // counted, with the last iteration's outcome (runLoop leaves an iteration's end to the next
  // write). The 5th (after iteration 3's run, carrying its outcome) fails.
  const store = failingOnce(inner, 5);
  const executor = createScriptedExecutor(completesTask(), { clock });
  const logger = new MemoryLogger();
  const result = await runLoop({ plan, executor, store, logger, clock, terminalId: "term_001" });
  return { plan, clock, store, executor, logger, result };
}

const start = (iteration: number, task: string) => [
  "iteration_start",
  { iteration, current_task_id: task, total_tasks: 4 },
];
const end = (iteration: number, completed: string[]) => [
  "iteration_end",
  {
    iteration,
    tasks_completed: completed,
    tasks_failed: [],
    should_exit: false,
    exit_reason: null,
  },
];

describe("scenario 10: a crash, then resume", () => {
  it("a failed state write resolves with state_error and logs an error event for the iteration in progress", async () => {
    const { executor, logger, result } = await crashAfterIteration3();

    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
      { task: "TASK-002", iteration: 2, attempt: 1, kind: "task" },
      { task: "TASK-003", iteration: 3, attempt: 1, kind: "task" },
    ]);
    expect(result.exitReason).toBe("state_error");
    expect(result.complete).toBe(false);
    expect(result.error).toMatchObject({
      name: "StateStoreError",
      message: expect.stringContaining("ENOSPC: no space left on device"),
    });
    expect(logOf(logger.events)).toEqual([
      start(1, "TASK-001"),
      end(1, ["TASK-001"]),
      start(2, "TASK-002"),
      end(2, ["TASK-001", "TASK-002"]),
      start(3, "TASK-003"),
      // Iteration 3's outcome is saved with the write that counts iteration 4's call: its end
      // is logged, then the failed save stops the loop before iteration 4 starts.
      end(3, ["TASK-001", "TASK-002", "TASK-003"]),
      [
        "error",
        {
          error_type: "StateStoreError",
          error_message: expect.stringContaining("ENOSPC: no space left on device"),
          // The write that failed recorded iteration 3, whose task is TASK-003
          // (docs/state-and-logs.md, error: "The task being worked on").
          iteration: 3,
          current_task_id: "TASK-003",
          traceback: expect.any(String),
        },
      ],
      [
        "loop_exit",
        {
          total_iterations: 3,
          total_tasks_completed: 3,
          exit_reason: "state_error",
          final_state: result.state,
        },
      ],
    ]);
  });

  it("a second runLoop on the same store continues: iterations carry over, done tasks are not run again", async () => {
    const { plan, clock, store, result: crashed } = await crashAfterIteration3();
    expect(crashed.exitReason).toBe("state_error");

    const second = createScriptedExecutor(completesTask({ exitSignal: true }), { clock });
    const secondLog = new MemoryLogger();
    const resumed = await runLoop({
      plan,
      executor: second,
      store,
      logger: secondLog,
      clock,
      terminalId: "term_001",
    });

    // Only TASK-004 runs (then a wrap-up, see below); the iteration count carries over.
    expect(callsOf(second)).toEqual([
      { task: "TASK-004", iteration: 4, attempt: 1, kind: "task" },
      { task: null, iteration: 5, attempt: 1, kind: "wrap_up" },
    ]);
    expect(logOf(secondLog.events)).toEqual([
      start(4, "TASK-004"),
      end(4, ["TASK-001", "TASK-002", "TASK-003", "TASK-004"]),
      // completion_indicators restart at 0 for a new run (startRun): the gate needs a second
      // indicator, so a wrap-up iteration asks the agent to verify and signal.
      ["iteration_start", { iteration: 5, current_task_id: null, total_tasks: 4 }],
      [
        "iteration_end",
        {
          iteration: 5,
          tasks_completed: ["TASK-001", "TASK-002", "TASK-003", "TASK-004"],
          tasks_failed: [],
          should_exit: true,
          exit_reason: "all_tasks_complete",
        },
      ],
      [
        "loop_exit",
        {
          total_iterations: 5,
          total_tasks_completed: 4,
          exit_reason: "all_tasks_complete",
          final_state: resumed.state,
        },
      ],
    ]);
    expect(resumed).toMatchObject({
      exitReason: "all_tasks_complete",
      complete: true,
      iterations: 2,
      totalIterations: 5,
      tasksCompleted: ["TASK-001", "TASK-002", "TASK-003", "TASK-004"],
    });
    expect(resumed.state?.run).toMatchObject({ status: "exited", iterations_at_start: 3 });
  });
});
