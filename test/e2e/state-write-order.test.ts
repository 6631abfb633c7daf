import { runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START, seedPlan, withSet } from "./support.js";

// runLoop saves an iteration's outcome while it prepares the next iteration (a deferred
// write), and a parallel run's workers save at once: the loop's state writes still reach the
// store one at a time, in order, and the outcome is saved before the next agent is called.

/** Lets `turns` turns of the microtask queue go by (a slow store, without a timer). */
async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn += 1) await Promise.resolve();
}

/** A store whose `loop_state` writes take a varying while, recording what it saw. */
function slowStore(inner: MemoryStateStore) {
  const seen = { inFlight: 0, mostAtOnce: 0, iterations: [] as number[] };
  let writes = 0;
  const store = withSet(inner, async (terminalId, key, text) => {
    if (key !== "loop_state") return inner.set(terminalId, key, text);
    seen.inFlight += 1;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.inFlight);
    writes += 1;
    // Odd writes are slow, even ones quick: a store that answered in any order would land an
    // older state last.
    await turns(writes % 2 === 1 ? 50 : 1);
    seen.iterations.push(JSON.parse(text).loop_metadata.iterations);
    await inner.set(terminalId, key, text);
    seen.inFlight -= 1;
  });
  return { store, seen };
}

describe("state writes", () => {
  it("reach the store one at a time and in order; each outcome is saved before the next call", async () => {
    const inner = new MemoryStateStore();
    const { store, seen } = slowStore(inner);
    const savedAtCall: number[] = [];
    const clock = createTestClock({ start: START });
    const scripted = createScriptedExecutor(completesTask(), { clock });
    const executor = {
      ...scripted,
      execute: async (...args: Parameters<typeof scripted.execute>) => {
        const text = await inner.get("term_001", "loop_state", "current");
        savedAtCall.push(text === null ? -1 : JSON.parse(text).loop_metadata.iterations);
        return scripted.execute(...args);
      },
    };
    const result = await runLoop({
      plan: memoryPlan(seedPlan(3), { path: "plan.md" }),
      executor,
      store,
      clock,
      terminalId: "term_001",
    });

    expect(result.exitReason).not.toBe("state_error");
    expect(seen.mostAtOnce).toBe(1);
    // Never an older state after a newer one.
    expect(seen.iterations).toEqual([...seen.iterations].sort((a, b) => a - b));
    // When the agent of iteration N is called, iteration N-1's outcome is in the store.
    expect(savedAtCall.slice(0, 3)).toEqual([0, 1, 2]);
    const stored = JSON.parse((await inner.get("term_001", "loop_state", "current")) ?? "{}");
    expect(stored.loop_metadata.iterations).toBe(result.totalIterations);
  });
});
