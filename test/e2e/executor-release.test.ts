import { type Executor, runLoop, type StateStore } from "@loop/core";
import { completesTask, MemoryStateStore, memoryPlan } from "@loop/memory";
import { describe, expect, it } from "vitest";
import { taskList, withSet } from "./support.js";

// `Executor.release`: what an executor holds ready for a next `execute` (CommandExecutor's
// process started ahead) is let go once a run is over, however it ended, and after the last
// `execute` — never while one runs. The process side is test/exec-start-ahead.test.ts.

/** An executor that completes each task, logging its calls and its releases in `calls`. */
function releasingExecutor(calls: string[], release: () => void = () => undefined): Executor {
  return {
    name: "releasing",
    specificationVersion: "v1",
    async execute(request) {
      calls.push(`execute ${request.task?.id ?? "wrap-up"}`);
      await new Promise((resolve) => setImmediate(resolve));
      calls.push("executed");
      return completesTask({ exitSignal: request.task?.id === "TASK-002" });
    },
    release() {
      calls.push("release");
      release();
    },
  };
}

const run = (executor: Executor, store: StateStore = new MemoryStateStore()) =>
  runLoop({ plan: memoryPlan(taskList(2), { path: "plan.md" }), executor, store, terminalId: "t" });

describe("Executor.release", () => {
  it("is called once, after the last execute of a run that completes", async () => {
    const calls: string[] = [];
    const result = await run(releasingExecutor(calls));
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(calls.filter((call) => call === "release")).toHaveLength(1);
    expect(calls.at(-1)).toBe("release");
    expect(calls.at(-2)).toBe("executed");
  });

  it("is called when the run stops on a failed state write, and again by each later run", async () => {
    const calls: string[] = [];
    const inner = new MemoryStateStore();
    let failing = true;
    const store = withSet(inner, async (terminalId, key, text) => {
      if (failing && calls.includes("executed")) throw new Error("EIO: i/o error");
      await inner.set(terminalId, key, text);
    });
    const executor = releasingExecutor(calls);
    expect((await run(executor, store)).exitReason).toBe("state_error");
    expect(calls.at(-1)).toBe("release");
    failing = false;
    await run(executor, store);
    expect(calls.filter((call) => call === "release")).toHaveLength(2);
  });

  it("that throws loses nothing of the run", async () => {
    const calls: string[] = [];
    const executor = releasingExecutor(calls, () => {
      throw new Error("release failed");
    });
    const result = await run(executor);
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(result.state?.completed_tasks).toEqual(["TASK-001", "TASK-002"]);
  });
});
