import { runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START, taskList } from "./support.js";

// A call to the agent counts toward limits.max_calls_per_hour when it starts, and the count is
// saved before the agent runs: a loop killed mid-call, then restarted, cannot make more calls
// in the hour than the limit allows.

describe("the hourly call count", () => {
  it("is saved with the call counted while the agent is still running", async () => {
    const store = new MemoryStateStore();
    const storedCalls = () => {
      const text = store.documents.get("default")?.get("loop_state")?.current ?? "null";
      return (JSON.parse(text) as { rate_window?: { calls_made: number } } | null)?.rate_window
        ?.calls_made;
    };
    const seen: (number | undefined)[] = [];
    const executor = createScriptedExecutor((request) => {
      seen.push(storedCalls());
      return completesTask({ exitSignal: request.iteration === 2 });
    });
    await runLoop({
      plan: memoryPlan(taskList(2), { path: "plan.md" }),
      executor,
      store,
      clock: createTestClock({ start: START }),
    });
    // During call 1 the stored state already counts it; during call 2, both.
    expect(seen).toEqual([1, 2]);
  });
});
