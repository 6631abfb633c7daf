import { describe, expect, it } from "vitest";
import { forgetTask } from "./forget-task.js";

describe("forgetTask", () => {
  const state = {
    schema_version: 1,
    current_task_id: null,
    completed_tasks: ["TASK-2"],
    failed_tasks: ["TASK-3", "TASK-1"],
    completion_indicators: 0,
    loop_metadata: { plan_path: "/p/plan.md", started_at: "t0", last_update: "t0", iterations: 4 },
    task_attempts: { "TASK-3": 2, "TASK-1": 1 },
  } as const;

  it("forgets one task's given-up status and attempts, and nothing else", () => {
    const forgotten = forgetTask(state as never, "TASK-3", "t1");
    expect(forgotten.wasGivenUp).toBe(true);
    expect(forgotten.attempts).toBe(2);
    expect(forgotten.state).toEqual({
      ...state,
      failed_tasks: ["TASK-1"],
      task_attempts: { "TASK-1": 1 },
      loop_metadata: { ...state.loop_metadata, last_update: "t1" },
    });
  });

  it("says so of a task that was neither given up nor attempted", () => {
    const forgotten = forgetTask(state as never, "TASK-9", "t1");
    expect([forgotten.wasGivenUp, forgotten.attempts]).toEqual([false, 0]);
    expect(forgotten.state.failed_tasks).toEqual(state.failed_tasks);
  });
});
