import { getEventListeners } from "node:events";
import { runLoop, type StateDocumentKey, type StateLock, StateStoreError } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  hangs,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START, taskList } from "./support.js";

// A lock a store can lose while the loop holds it (a lease another machine took over after it
// expired): the loop stops at once — its agent stopped, not left to finish its iteration next
// to the new holder's — and ends with state_error.

/** A memory store whose terminal lock can be lost, refusing writes once it is (fencing). */
class LosableLockStore extends MemoryStateStore {
  readonly #lost = new AbortController();
  writesAfterLoss = 0;

  /** The signal the terminal's locks carry. */
  get lockSignal(): AbortSignal {
    return this.#lost.signal;
  }

  /** Loses the terminal's lock, as a lease taken over by another holder is. */
  lose(): void {
    this.#lost.abort(
      new StateStoreError({ message: 'the lease on terminal "default" was taken over by pid 99' }),
    );
  }

  override async lock(terminalId: string): Promise<StateLock> {
    const lock = await super.lock(terminalId);
    if (terminalId !== "default") return lock;
    return { ...lock, release: () => lock.release(), signal: this.#lost.signal };
  }

  override async set(terminalId: string, key: StateDocumentKey, text: string): Promise<void> {
    if (this.#lost.signal.aborted) {
      this.writesAfterLoss += 1;
      throw this.#lost.signal.reason;
    }
    return super.set(terminalId, key, text);
  }
}

describe("a lock lost while the loop holds it", () => {
  it("stops the agent at once and ends with state_error, the store's reason as the error", async () => {
    const store = new LosableLockStore();
    const logger = new MemoryLogger();
    const hang = hangs();
    const executor = createScriptedExecutor([
      completesTask(),
      (request, context) => {
        // The second agent is working when another holder takes the terminal over.
        queueMicrotask(() => store.lose());
        return hang(request, context);
      },
    ]);
    const result = await runLoop({
      plan: memoryPlan(taskList(3), { path: "plan.md" }),
      executor,
      store,
      logger,
      clock: createTestClock({ start: START }),
    });
    expect(result.exitReason).toBe("state_error");
    expect(result.error?.message).toContain("was taken over by pid 99");
    expect(executor.calls).toHaveLength(2);
    // The hanging agent was stopped by the loop, not left to run out its iteration.
    expect(executor.calls[1]?.signalAborted).toBe(true);
    expect(result.tasksCompleted).toEqual(["TASK-001"]);
    // The decision log says why (its final state write was refused, as the lost lock's are).
    const error = logger.events.find((event) => event.event === "error");
    expect(error?.payload).toMatchObject({ error_type: "StateStoreError" });
    expect(String(error?.payload.error_message)).toContain("was taken over by pid 99");
  });

  it("a lock already lost when the loop starts stops it before any agent runs", async () => {
    const store = new LosableLockStore();
    store.lose();
    const executor = createScriptedExecutor([]);
    const result = await runLoop({
      plan: memoryPlan(taskList(2), { path: "plan.md" }),
      executor,
      store,
      clock: createTestClock({ start: START }),
    });
    expect(result.exitReason).toBe("state_error");
    expect(executor.calls).toHaveLength(0);
  });

  it("keeps no listener on the caller's signal or the lock's once the run is over", async () => {
    const store = new LosableLockStore();
    const caller = new AbortController();
    for (let run = 0; run < 3; run += 1) {
      const result = await runLoop({
        plan: memoryPlan(taskList(1), { path: `plan-${run}.md` }),
        executor: createScriptedExecutor([completesTask({ exitSignal: true })]),
        store: new MemoryStateStore(),
        clock: createTestClock({ start: START }),
        signal: caller.signal,
      });
      expect(result.exitReason).not.toBe("state_error");
    }
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor: createScriptedExecutor([completesTask({ exitSignal: true })]),
      store,
      clock: createTestClock({ start: START }),
    });
    expect(getEventListeners(store.lockSignal, "abort")).toHaveLength(0);
  });
});
