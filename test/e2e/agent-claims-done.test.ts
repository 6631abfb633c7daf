import { type ExecutionResult, runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { callsOf, logOf, START, seedPlan, withoutTaskComplete } from "./support.js";

// Scenario 3: an agent's word that it finished, with the boxes still open, is not completion
// (DESIGN.md: "An agent's word that it finished, with the box still open, is not completion").
// No task is completed, the loop never exits all_tasks_complete, and a safety exit stops it:
// done_signals after 2 done signals in a row (stop_when.done_signals, default 2).

async function runClaims(answers: ExecutionResult[]) {
  const plan = memoryPlan(seedPlan(3), { path: "plan.md" });
  const clock = createTestClock({ start: START });
  const executor = createScriptedExecutor(answers, { clock });
  const logger = new MemoryLogger();
  const result = await runLoop({ plan, executor, store: new MemoryStateStore(), logger, clock });
  return { plan, executor, logger, result };
}

function expectNotComplete({
  plan,
  executor,
  logger,
  result,
}: Awaited<ReturnType<typeof runClaims>>) {
  expect(callsOf(executor)).toEqual([
    { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
    { task: "TASK-001", iteration: 2, attempt: 2, kind: "task" },
  ]);
  const end = (iteration: number, exit: boolean) => [
    "iteration_end",
    {
      iteration,
      tasks_completed: [],
      tasks_failed: [],
      should_exit: exit,
      exit_reason: exit ? "done_signals" : null,
    },
  ];
  const start = (iteration: number) => [
    "iteration_start",
    { iteration, current_task_id: "TASK-001", total_tasks: 3 },
  ];
  expect(logOf(logger.events)).toEqual([
    start(1),
    end(1, false),
    start(2),
    end(2, true),
    [
      "loop_exit",
      {
        total_iterations: 2,
        total_tasks_completed: 0,
        exit_reason: "done_signals",
        final_state: result.state,
      },
    ],
  ]);
  expect(result).toMatchObject({
    exitReason: "done_signals",
    complete: false,
    iterations: 2,
    tasksCompleted: [],
    tasksFailed: [],
  });
  expect(result.decision).toMatchObject({ exit: true, reason: "done_signals", gatePassed: false });
  expect(result.state).toMatchObject({
    completed_tasks: [],
    task_attempts: { "TASK-001": 2 },
    stop_counters: { done_signal_streak: 2 },
    run: { status: "exited", exit_reason: "done_signals" },
  });
  // Every box is still open: the engine only kept the RALPH_STATUS indicators in step.
  expect(plan.text).toBe(
    seedPlan(3).replace("- completion_indicators: 0", "- completion_indicators: 2"),
  );
}

describe("scenario 3: the agent says it is done, with tasks left and boxes open", () => {
  it("plain words: 'Done! All tasks are complete.' then 'All tasks are complete.'", async () => {
    // (A bare "Done." is not even a done signal: "Done reading the file" finishes nothing.)
    const run = await runClaims([
      { success: true, output: "Done! All tasks are complete." },
      { success: true, output: "All tasks are complete." },
    ]);
    expectNotComplete(run);
  });

  it("a status block claiming STATUS: COMPLETE and EXIT_SIGNAL: true, without checking a box or reporting the task", async () => {
    const claim = withoutTaskComplete(completesTask({ exitSignal: true, filesModified: 0 }));
    const run = await runClaims([claim, claim]);
    expectNotComplete(run);
    // The gate saw the exit signal and the indicators but not the tasks.
    const checks = Object.fromEntries(
      (run.result.decision?.checks ?? []).map((check) => [check.name, check.met]),
    );
    expect(checks).toMatchObject({
      completion_indicators: true,
      exit_signal: true,
      all_tasks_complete: false,
    });
  });
});
