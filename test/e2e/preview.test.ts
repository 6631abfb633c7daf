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

// previewIteration is `loop run --dry-run`: what the next iteration would send, with nothing run
// or written. Its request must be the very one runLoop sends next.

const PLAN = "# Plan\n\n- [x] TASK-001 Model\n- [ ] TASK-002 List todos\n- [ ] TASK-003 Docs\n";

describe("previewIteration", () => {
  it("gives the request runLoop's next iteration sends, and writes nothing", async () => {
    const plan = memoryPlan(PLAN, { path: "plan.md" });
    const store = new MemoryStateStore();
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor([completesTask()]);
    const preview = await previewIteration({
      plan,
      executor,
      store,
      clock,
      terminalId: "t1",
      prompt: { template: "Do {{task_id}}: {{task_title}} (attempt {{attempt}})" },
    });
    expect(preview.decision.exit).toBe(false);
    expect(preview.state).toBeNull();
    expect(preview.rateLimitWaitMs).toBe(0);
    expect(preview.request).toMatchObject({
      kind: "task",
      task: { id: "TASK-002" },
      iteration: 1,
      attempt: 1,
      terminalId: "t1",
      prompt: "Do TASK-002: List todos (attempt 1)",
    });
    expect(store.snapshot()).toEqual({});
    expect(executor.calls).toHaveLength(0);
    expect(await plan.read()).toBe(PLAN);

    await runLoop({
      plan,
      executor,
      store,
      clock,
      terminalId: "t1",
      logger: new MemoryLogger(),
      config: { limits: { max_iterations: 1 } },
      prompt: { template: "Do {{task_id}}: {{task_title}} (attempt {{attempt}})" },
    });
    expect(executor.calls[0]?.request.prompt).toBe(preview.request?.prompt);
  });

  it("continues from the stored state: the next task and iteration number", async () => {
    const plan = memoryPlan(PLAN, { path: "plan.md" });
    const store = new MemoryStateStore();
    const clock = createTestClock({ start: START });
    await runLoop({
      plan,
      executor: createScriptedExecutor([completesTask()]),
      store,
      clock,
      config: { limits: { max_iterations: 1 } },
    });
    const before = store.snapshot();
    const preview = await previewIteration({
      plan,
      executor: createScriptedExecutor([]),
      store,
      clock,
      config: { limits: { max_iterations: 5 } },
    });
    expect(preview.state?.loop_metadata.iterations).toBe(1);
    expect(preview.request).toMatchObject({ task: { id: "TASK-003" }, iteration: 2 });
    expect(store.snapshot()).toEqual(before);
  });

  it("says when the loop would exit at once instead of running", async () => {
    const plan = memoryPlan(PLAN, { path: "plan.md" });
    const preview = await previewIteration({
      plan,
      executor: createScriptedExecutor([]),
      store: new MemoryStateStore(),
      config: { limits: { max_iterations: 0 } },
    }).catch((error: unknown) => error);
    // max_iterations must be at least 1: the config error is thrown, not swallowed.
    expect(preview).toMatchObject({ name: "ConfigError" });
    const store = new MemoryStateStore();
    const clock = createTestClock({ start: START });
    const limits = { limits: { max_iterations: 1 } };
    await runLoop({
      plan,
      executor: createScriptedExecutor([completesTask()]),
      store,
      clock,
      config: limits,
    });
    const stopped = await previewIteration({
      plan,
      executor: createScriptedExecutor([]),
      store,
      clock,
      config: limits,
    });
    expect(stopped.request).toBeNull();
    expect(stopped.decision).toMatchObject({ exit: true, reason: "max_iterations" });
  });
});
