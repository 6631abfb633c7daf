import { PlanInUseError, planLockId, projectLockId, runLoop, StateLockedError } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START, taskList } from "./support.js";

// A second loop on a terminal another loop holds never started: it writes nothing, so the
// running loop's state and decision log read as that loop left them.

describe("a run the lock refuses", () => {
  it("exits state_error with the StateLockedError, calls no agent and writes nothing", async () => {
    const store = new MemoryStateStore();
    const held = await store.lock("default");
    const before = store.snapshot();
    const logger = new MemoryLogger();
    const executor = createScriptedExecutor([]);
    const result = await runLoop({
      plan: memoryPlan(taskList(2), { path: "plan.md" }),
      executor,
      store,
      logger,
      clock: createTestClock({ start: START }),
    });
    expect(result.exitReason).toBe("state_error");
    expect(StateLockedError.isInstance(result.error)).toBe(true);
    expect(executor.calls).toHaveLength(0);
    expect(logger.events).toEqual([]);
    expect(store.snapshot()).toEqual(before);
    await held.release();
  });

  it("a second terminal on the same plan is refused with PlanInUseError; another plan runs", async () => {
    const store = new MemoryStateStore();
    const plan = memoryPlan(taskList(2), { path: "/project/plan.md" });
    const held = await store.lock(planLockId("/project/plan.md"));
    const executor = createScriptedExecutor([]);
    const refused = await runLoop({
      plan,
      executor,
      store,
      terminalId: "second",
      clock: createTestClock({ start: START }),
    });
    expect(refused.exitReason).toBe("state_error");
    expect(PlanInUseError.isInstance(refused.error)).toBe(true);
    expect(refused.error?.message).toMatch(
      /^\/project\/plan\.md is being run by another loop \(pid \d+/,
    );
    expect(executor.calls).toHaveLength(0);
    // The refused run let go of its terminal: that terminal can run another plan.
    const other = await runLoop({
      plan: memoryPlan(taskList(1), { path: "/project/other.md" }),
      executor: createScriptedExecutor([completesTask({ exitSignal: true })]),
      store,
      terminalId: "second",
      clock: createTestClock({ start: START }),
      config: { exit_policy: { min_completion_indicators: 1 } },
    });
    expect(other.exitReason).toBe("all_tasks_complete");
    await held.release();
  });

  it("with a projectRoot, a second terminal in the project is refused whatever its plan, unless allow_per_terminal_plan", async () => {
    const store = new MemoryStateStore();
    const held = await store.lock(projectLockId("/project"));
    const before = store.snapshot();
    const run = (config?: { plans: { allow_per_terminal_plan: boolean } }) => {
      const executor = createScriptedExecutor([completesTask({ exitSignal: true })]);
      return runLoop({
        plan: memoryPlan(taskList(1), { path: "/project/other.md" }),
        executor,
        store,
        terminalId: "second",
        projectRoot: "/project",
        clock: createTestClock({ start: START }),
        config: { exit_policy: { min_completion_indicators: 1 }, ...config },
      }).then((result) => ({ result, calls: executor.calls.length }));
    };

    const refused = await run();
    expect(refused.result.exitReason).toBe("state_error");
    expect(PlanInUseError.isInstance(refused.result.error)).toBe(true);
    expect(refused.result.error).toMatchObject({
      projectRoot: "/project",
      planPath: "/project/other.md",
    });
    expect(refused.result.error?.message).toMatch(
      /^\/project is being run by another loop \(pid \d+.*set plans\.allow_per_terminal_plan: true/,
    );
    expect(refused.calls).toBe(0);
    expect(store.snapshot()).toEqual(before);

    const ownPlan = await run({ plans: { allow_per_terminal_plan: true } });
    expect(ownPlan.result.exitReason).toBe("all_tasks_complete");
    expect(ownPlan.calls).toBe(1);
    await held.release();
  });

  it("holds the project's lock while it runs, and lets it go when it ends", async () => {
    const store = new MemoryStateStore();
    let lockedDuringRun: unknown = null;
    const executor = createScriptedExecutor([
      async () => {
        lockedDuringRun = await store.lock(projectLockId("/project")).catch((error) => error);
        return completesTask({ exitSignal: true });
      },
    ]);
    const result = await runLoop({
      plan: memoryPlan(taskList(1), { path: "/project/plan.md" }),
      executor,
      store,
      projectRoot: "/project",
      clock: createTestClock({ start: START }),
      config: { exit_policy: { min_completion_indicators: 1 } },
    });
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(StateLockedError.isInstance(lockedDuringRun)).toBe(true);
    const after = await store.lock(projectLockId("/project"));
    await after.release();
  });
});
