import { EmptyPlanError, previewIteration, runLoop } from "@loop/core";
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

  it("a plan whose every box is checked before its first run exits complete, calling no agent", async () => {
    const plan = memoryPlan("# Plan\n\n- [x] TASK-001 Model\n- [x] TASK-002 List todos\n", {
      path: "plan.md",
    });
    const idle = createScriptedExecutor([]);
    const result = await runLoop({ plan, store: new MemoryStateStore(), executor: idle });
    expect(result).toMatchObject({
      exitReason: "all_tasks_complete",
      complete: true,
      iterations: 0,
    });
    expect(idle.calls).toHaveLength(0);
  });

  it("a plan with no task is an error before any agent call, never complete", async () => {
    const plan = memoryPlan("# Plan\n\nSome notes, no tasks yet.\n", { path: "plan.md" });
    const idle = createScriptedExecutor([]);
    const logger = new MemoryLogger();
    const result = await runLoop({ plan, store: new MemoryStateStore(), executor: idle, logger });
    expect(result).toMatchObject({ exitReason: "plan_error", complete: false, iterations: 0 });
    expect(EmptyPlanError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toBe(
      "plan.md has no tasks, so there is nothing to run: add one as a checkbox line such as `- [ ] TASK-001 Write the parser` (docs/plan-format.md).",
    );
    expect(idle.calls).toHaveLength(0);
    expect(logger.events.map((event) => event.event)).toEqual(["error", "loop_exit"]);
  });
});
