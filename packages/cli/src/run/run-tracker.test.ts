import { createLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { type RunView, trackRun } from "./run-tracker.js";

const START = new Date("2026-11-29T12:00:00Z");
const PLAN = "# Plan\n\n- [ ] TASK-001 One\n- [ ] TASK-002 Two\n- [ ] TASK-003 Three\n";

describe("trackRun", () => {
  it("counts each call while its agent runs, and the tasks done once the iteration ended", async () => {
    const store = new MemoryStateStore();
    const clock = createTestClock({ start: START });
    const seen: Pick<RunView, "iteration" | "callsThisHour" | "tasksDone" | "lastAction">[] = [];
    let view: Readonly<RunView> | null = null;
    const executor = createScriptedExecutor((request) => {
      if (view !== null) {
        const { iteration, callsThisHour, tasksDone, lastAction } = view;
        seen.push({ iteration, callsThisHour, tasksDone, lastAction });
      }
      return completesTask({ exitSignal: request.iteration === 3 });
    });
    const loop = createLoop({ plan: memoryPlan(PLAN), executor, store, clock });
    const changes: number[] = [];
    view = trackRun(loop, {
      store,
      terminalId: "default",
      maxCallsPerHour: 100,
      now: () => clock.now(),
      onChange: (current) => changes.push(current.callsThisHour),
    });
    const result = await loop.run();
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(seen).toEqual([
      { iteration: 1, callsThisHour: 1, tasksDone: 0, lastAction: "executing" },
      { iteration: 2, callsThisHour: 2, tasksDone: 1, lastAction: "executing" },
      { iteration: 3, callsThisHour: 3, tasksDone: 2, lastAction: "executing" },
    ]);
    // The state the last iteration-end carried, taken in at once: it agrees with the count
    // kept meanwhile.
    expect(view).toMatchObject({ callsThisHour: 3, tasksDone: 3, lastAction: "executed" });
    expect(changes.at(-1)).toBe(3);
  });
});
