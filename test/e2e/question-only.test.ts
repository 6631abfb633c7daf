import { type ExecutionResult, runLoop } from "@loop/core";
import {
  createScriptedExecutor,
  createTestClock,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START, taskList } from "./support.js";

// An agent that only asks questions waits for an answer nobody gives in a headless loop: the
// loop stops with needs_input, and the task it asked about stays open for the answer — it is not
// given up as if the agent had failed it.

const asks: ExecutionResult = {
  success: true,
  output: "Should I accept tabs in the parser, or only spaces? Which grammar version do you want?",
};

describe("question-only iterations", () => {
  it("stop with needs_input and leave the task open, with no attempt used up", async () => {
    const executor = createScriptedExecutor([asks, asks, asks, asks, asks]);
    const result = await runLoop({
      plan: memoryPlan(taskList(2), { path: "plan.md" }),
      executor,
      store: new MemoryStateStore(),
      clock: createTestClock({ start: START }),
    });
    expect(result.exitReason).toBe("needs_input");
    expect(result.tasksFailed).toEqual([]);
    expect(result.state?.task_attempts ?? {}).toEqual({});
    expect(executor.calls.every((call) => call.request.task?.id === "TASK-001")).toBe(true);
  });
});
