import { runLoop, StateLockedError } from "@loop/core";
import {
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
});
