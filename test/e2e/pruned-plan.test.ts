import { type LoopState, runLoop } from "@loop/core";
import {
  createScriptedExecutor,
  createTestClock,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START } from "./support.js";

// A Ralph-style plan that is worked and pruned: ten open tasks, each checked one deleted and a
// new one appended. The state rewritten every iteration must not grow with the run's length.

function openTasks(from: number, count: number): string[] {
  return Array.from(
    { length: count },
    (_, index) => `- [ ] TASK-${from + index} Part ${from + index}`,
  );
}

describe("a plan worked and pruned over a long run", () => {
  it("keeps completed_tasks and task_attempts bounded: the plan's tasks and the last 100 deleted completions", async () => {
    let next = 11;
    const plan = memoryPlan(`# Plan\n\n${openTasks(1, 10).join("\n")}\n`, { path: "plan.md" });
    const executor = createScriptedExecutor(async (request) => {
      const id = request.task?.id ?? "";
      // Prune the task checked last time, check this one, append a new one.
      const lines = (await plan.read())
        .split("\n")
        .filter((line) => !line.startsWith("- [x] "))
        .map((line) => (line.includes(`] ${id} `) ? line.replace("- [ ]", "- [x]") : line));
      lines.splice(lines.length - 1, 0, ...openTasks(next, 1));
      next += 1;
      await plan.write(lines.join("\n"));
      return { output: "Implemented it.", success: true, taskComplete: false, filesChanged: 1 };
    });
    const store = new MemoryStateStore();
    const sizes: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      await runLoop({
        plan,
        executor,
        store,
        clock: createTestClock({ start: START }),
        config: { limits: { max_iterations: 150 * (run + 1), max_calls_per_hour: 100_000 } },
      });
      const text = (await store.get("default", "loop_state")) ?? "";
      sizes.push(text.length);
      const state = JSON.parse(text) as LoopState;
      // The last 100 deleted completions, and the one the plan still shows checked.
      expect(state.completed_tasks.length).toBeLessThanOrEqual(101);
      expect(Object.keys(state.task_attempts ?? {}).length).toBeLessThanOrEqual(11);
    }
    const state = JSON.parse((await store.get("default", "loop_state")) ?? "") as LoopState;
    // The most recent deletions are the ones kept, in completion order.
    // 450 iterations: TASK-450 is checked in the plan, TASK-350 … TASK-449 were deleted.
    expect(state.completed_tasks[0]).toBe("TASK-350");
    expect(state.completed_tasks.at(-1)).toBe("TASK-450");
    // 150 iterations more make the state no larger (ids grow a digit at most).
    expect(sizes[2]).toBeLessThanOrEqual((sizes[1] ?? 0) + 200);
  });
});
