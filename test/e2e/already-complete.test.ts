import { previewIteration, runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START } from "./support.js";

// Running a finished plan again must not spend agent calls on wrap-up iterations.

const PLAN = "# Plan\n\n- [ ] TASK-001 Model\n- [ ] TASK-002 List todos\n";

describe("a run over a plan the previous run completed", () => {
  it("exits at once with the previous reason, calling no agent; a new task runs again", async () => {
    const plan = memoryPlan(PLAN, { path: "plan.md" });
    const store = new MemoryStateStore();
    const clock = createTestClock({ start: START });
    const first = await runLoop({
      plan,
      store,
      clock,
      executor: createScriptedExecutor([
        completesTask(),
        completesTask(),
        completesTask({ exitSignal: true }),
      ]),
    });
    expect(first).toMatchObject({ exitReason: "all_tasks_complete", iterations: 3 });

    const idle = createScriptedExecutor([]);
    const logger = new MemoryLogger();
    const preview = await previewIteration({ plan, store, clock, executor: idle });
    expect(preview.decision).toMatchObject({ exit: true, reason: first.exitReason });
    const again = await runLoop({ plan, store, clock, executor: idle, logger });
    expect(again).toMatchObject({ exitReason: first.exitReason, complete: true, iterations: 0 });
    expect(idle.calls).toHaveLength(0);
    expect(logger.events.map((event) => event.event)).toEqual(["loop_exit"]);

    await plan.write(`${await plan.read()}- [ ] TASK-003 Docs\n`);
    const worker = createScriptedExecutor([completesTask()]);
    const more = await runLoop({
      plan,
      store,
      clock,
      executor: worker,
      config: { limits: { max_iterations: 4 } },
    });
    expect(worker.calls[0]?.request.task?.id).toBe("TASK-003");
    expect(more.tasksCompleted).toContain("TASK-003");
  });
});
