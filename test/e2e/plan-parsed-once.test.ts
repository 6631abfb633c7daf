// Issue 15: a plan is parsed once per text the engine has not seen, and not at all when it
// differs from the last one only in checkbox and RALPH_STATUS values — the agent checking its
// box, the engine checking a box and keeping the status in step. Parsing a 10,000-task plan
// takes tens of milliseconds, so this is what keeps an iteration cheap on a large plan. The
// parser is counted, not replaced: every call goes to the real one.

import { runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
  type ScriptStep,
} from "@loop/memory";
import { describe, expect, it, vi } from "vitest";
import * as analysis from "../../packages/core/src/plan/plan-analysis.js";
import { withoutTaskComplete } from "./support.js";

vi.mock("../../packages/core/src/plan/plan-analysis.js", { spy: true });

function planOf(count: number): string {
  const tasks = Array.from(
    { length: count },
    (_, index) => `- [ ] TASK-${index + 1} Task ${index + 1}`,
  );
  return [
    "# Plan",
    "",
    "## RALPH_STATUS",
    "",
    "- EXIT_SIGNAL: false",
    "- completion_indicators: 0",
    "- current_task: TASK-1",
    "",
    "## Tasks",
    "",
    ...tasks,
    "",
  ].join("\n");
}

describe("the engine parses a plan once, then derives what its edits and the agent's boxes change", () => {
  it("runs 12 iterations of an agent that checks its box with one parse", async () => {
    const plan = memoryPlan(planOf(30), { path: "plan.md" });
    // The agent checks its own box by hand, as an agent editing the file does.
    const checksBox: ScriptStep = async (request) => {
      const text = await plan.read();
      await plan.write(text.replace(`- [ ] ${request.task?.id} `, `- [x] ${request.task?.id} `));
      return withoutTaskComplete(completesTask());
    };
    const executor = createScriptedExecutor(Array.from({ length: 12 }, () => checksBox));
    vi.mocked(analysis.analyzePlan).mockClear();

    const result = await runLoop({
      plan,
      executor,
      store: new MemoryStateStore(),
      logger: new MemoryLogger(),
      config: { limits: { max_iterations: 12 } },
    });

    expect(result.iterations).toBe(12);
    const text = await plan.read();
    expect(text).toContain("- [x] TASK-12 Task 12\n- [ ] TASK-13 Task 13");
    expect(text).toContain("- current_task: TASK-13\n");
    expect(vi.mocked(analysis.analyzePlan)).toHaveBeenCalledTimes(1);
  });

  it("parses a text whose lines the agent changed, and reads the task it added", async () => {
    const plan = memoryPlan(planOf(3), { path: "plan.md" });
    const addsTask: ScriptStep = async () => {
      const text = await plan.read();
      await plan.write(
        text.replace("- [ ] TASK-1 Task 1\n", "- [x] TASK-1 Task 1\n- [ ] TASK-9 Found\n"),
      );
      return withoutTaskComplete(completesTask());
    };
    const executor = createScriptedExecutor([addsTask, completesTask()]);
    vi.mocked(analysis.analyzePlan).mockClear();

    await runLoop({
      plan,
      executor,
      store: new MemoryStateStore(),
      logger: new MemoryLogger(),
      config: { limits: { max_iterations: 2 } },
    });

    expect(executor.requests.map((request) => request.task?.id)).toEqual(["TASK-1", "TASK-9"]);
    expect(vi.mocked(analysis.analyzePlan)).toHaveBeenCalledTimes(2);
  });
});
