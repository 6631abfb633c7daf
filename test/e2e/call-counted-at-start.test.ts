import { type AgentProcess, createLoop, type Executor, runLoop } from "@loop/core";
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

  it("is saved with the agent's process record when the executor starts processes: before the agent starts", async () => {
    const store = new MemoryStateStore();
    const stored = () =>
      JSON.parse(store.documents.get("default")?.get("loop_state")?.current ?? "null") as {
        rate_window?: { calls_made: number };
        agent_process?: AgentProcess;
      } | null;
    const seen: { calls: number | undefined; recorded: boolean }[] = [];
    let writes = 0;
    let writesAtStart = 0;
    const set = store.set.bind(store);
    store.set = (...args) => {
      if (args[1] === "loop_state") writes += 1;
      return set(...args);
    };
    const executor: Executor = {
      name: "process-starting",
      specificationVersion: "v1",
      async execute(request, options) {
        await options.recordProcess?.({
          token: `t${request.iteration}`,
          command: "agent",
          host: "h",
        });
        // One write since the iteration started holds both: the call counted and the process.
        expect(writes - writesAtStart).toBe(1);
        const state = stored();
        seen.push({
          calls: state?.rate_window?.calls_made,
          recorded: state?.agent_process !== undefined,
        });
        return { ...completesTask({ exitSignal: request.iteration === 2 }) };
      },
      stopSurvivors: async () => ({ pids: [], signal: null, stopped: true }),
    };
    const loop = createLoop({
      plan: memoryPlan(taskList(2), { path: "plan.md" }),
      executor,
      store,
      clock: createTestClock({ start: START }),
    });
    loop.on("iteration-start", () => {
      writesAtStart = writes;
    });
    const result = await loop.run();
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(seen).toEqual([
      { calls: 1, recorded: true },
      { calls: 2, recorded: true },
    ]);
  });

  it("is still saved when an executor that starts processes started none", async () => {
    const store = new MemoryStateStore();
    const executor: Executor = {
      name: "starts-nothing",
      specificationVersion: "v1",
      execute: async () => ({ output: "", success: false, error: "could not start" }),
      stopSurvivors: async () => ({ pids: [], signal: null, stopped: true }),
    };
    await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor,
      store,
      config: { limits: { max_iterations: 1 } },
      clock: createTestClock({ start: START }),
    });
    const text = store.documents.get("default")?.get("loop_state")?.current ?? "null";
    expect(
      (JSON.parse(text) as { rate_window: { calls_made: number } }).rate_window.calls_made,
    ).toBe(1);
  });
});
