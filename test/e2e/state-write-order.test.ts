import {
  type Executor,
  type LoopState,
  type RunLoopOptions,
  runLoop,
  type StateStore,
} from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { callsOf, logOf, START, seedPlan, withSet } from "./support.js";

// runLoop leaves an iteration's outcome to its next state write — before the next agent
// starts, the one that records the agent's process or counts its call — and a parallel run's
// workers save at once: the loop's state writes still reach the store one at a time, in order,
// and the outcome is saved before the next agent is called.

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
    const { clock, scripted } = scriptedAgent();
    const executor = {
      ...scripted,
      execute: async (...args: Parameters<typeof scripted.execute>) => {
        const text = await inner.get("term_001", "loop_state", "current");
        savedAtCall.push(text === null ? -1 : JSON.parse(text).loop_metadata.iterations);
        return scripted.execute(...args);
      },
    };
    const result = await runTasks(3, { executor, store, clock });

    expect(result.exitReason).not.toBe("state_error");
    expect(seen.mostAtOnce).toBe(1);
    // Never an older state after a newer one.
    expect(seen.iterations).toEqual([...seen.iterations].sort((a, b) => a - b));
    // When the agent of iteration N is called, iteration N-1's outcome is in the store.
    expect(savedAtCall.slice(0, 3)).toEqual([0, 1, 2]);
    const stored = JSON.parse((await inner.get("term_001", "loop_state", "current")) ?? "{}");
    expect(stored.loop_metadata.iterations).toBe(result.totalIterations);
  });

  it("an executor that records its process saves the last outcome with that record: one write per agent", async () => {
    const inner = new MemoryStateStore();
    const writes: LoopState[] = [];
    const store = withSet(inner, async (terminalId, key, text) => {
      if (key === "loop_state") writes.push(JSON.parse(text));
      await inner.set(terminalId, key, text);
    });
    const { clock, scripted } = scriptedAgent();
    // What was stored when each agent "started": once its record's write resolved.
    const storedAtStart: number[] = [];
    const executor = recordingExecutor(scripted, async () => {
      storedAtStart.push(await storedIterations(inner));
    });
    const result = await runTasks(3, { executor, store, clock });

    expect(result.exitReason).not.toBe("state_error");
    const agents = result.iterations;
    expect(storedAtStart).toEqual(Array.from({ length: agents }, (_, index) => index));
    // The run's first write, one per agent (its record, with the call counted and the last
    // outcome), then the last outcome and the exit: no write of an outcome of its own between.
    expect(writes.length).toBe(1 + agents + 2);
    const records = writes.slice(1, 1 + agents);
    expect(records.map((state) => state.agent_process?.iteration)).toEqual(
      Array.from({ length: agents }, (_, index) => index + 1),
    );
    expect(records.map((state) => state.loop_metadata.iterations)).toEqual(
      Array.from({ length: agents }, (_, index) => index),
    );
    expect(writes.at(-1)?.loop_metadata.iterations).toBe(agents);
  });

  it("the record of a started process is the one write a power loss may take: it adds only the process group", async () => {
    const inner = new MemoryStateStore();
    const writes: { durable: boolean; pgid: number | undefined; iterations: number }[] = [];
    const store = withSet(inner, async (terminalId, key, text, options) => {
      if (key === "loop_state") {
        const state = JSON.parse(text) as LoopState;
        writes.push({
          durable: options?.durable !== false,
          pgid: state.agent_process?.pgid,
          iterations: state.loop_metadata.iterations,
        });
      }
      await inner.set(terminalId, key, text);
    });
    const { clock, scripted } = scriptedAgent();
    // As CommandExecutor: the agent recorded before it starts, then again with its group.
    let agents = 0;
    const executor: Executor = {
      name: scripted.name,
      specificationVersion: "v1",
      stopSurvivors: async () => ({ pids: [], signal: null, stopped: true }),
      execute: async (request, options) => {
        agents += 1;
        const agent = { token: `token-${agents}`, command: "agent", host: "here" };
        await options.recordProcess?.(agent);
        await options.recordProcess?.({ ...agent, pgid: 1000 + agents, processStart: "boot:1" });
        return scripted.execute(request, options);
      },
    };
    const result = await runTasks(2, { executor, store, clock });

    expect(result.exitReason).not.toBe("state_error");
    const records = writes.slice(1, -2);
    expect(records).toHaveLength(2 * result.iterations);
    for (const [index, write] of records.entries()) {
      const agent = Math.floor(index / 2) + 1;
      // Before the agent starts: durable, with the last outcome; once it runs: its group only.
      expect(write).toEqual(
        index % 2 === 0
          ? { durable: true, pgid: undefined, iterations: agent - 1 }
          : { durable: false, pgid: 1000 + agent, iterations: agent - 1 },
      );
    }
    // Every other write — the run's start, the last outcome, the exit — is durable.
    expect([writes[0], ...writes.slice(-2)].every((write) => write?.durable)).toBe(true);
  });

  it("a failed record that carried an outcome stops the loop naming that outcome's iteration", async () => {
    const inner = new MemoryStateStore();
    let writes = 0;
    const store = withSet(inner, async (terminalId, key, text) => {
      // 1 at start, then one per agent: the 4th is iteration 3's record, carrying iteration 2's end.
      if (key === "loop_state" && ++writes === 4)
        throw new Error("ENOSPC: no space left on device");
      await inner.set(terminalId, key, text);
    });
    const { clock, scripted } = scriptedAgent();
    const logger = new MemoryLogger();
    const result = await runTasks(4, {
      executor: recordingExecutor(scripted, async () => undefined),
      store,
      logger,
      clock,
    });

    expect(result.exitReason).toBe("state_error");
    // Iteration 3's agent was never started: its record could not be saved.
    expect(callsOf(scripted).map((call) => call.iteration)).toEqual([1, 2]);
    const error = logOf(logger.events).find(([name]) => name === "error");
    expect(error?.[1]).toMatchObject({
      error_message: expect.stringContaining("ENOSPC"),
      iteration: 2,
      current_task_id: "TASK-002",
    });
    // The exit's write, made after, holds iteration 2's outcome.
    expect(await storedIterations(inner)).toBe(2);
  });

  it("an executor that has stopSurvivors but records nothing still gets the last outcome saved before it runs", async () => {
    const inner = new MemoryStateStore();
    const { clock, scripted } = scriptedAgent();
    const storedAtCall: number[] = [];
    const executor: Executor = {
      name: scripted.name,
      specificationVersion: "v1",
      stopSurvivors: async () => ({ pids: [], signal: null, stopped: true }),
      execute: async (request, options) => {
        // A few turns in, as a process would take to start.
        await turns(5);
        storedAtCall.push(await storedIterations(inner));
        return scripted.execute(request, options);
      },
    };
    const result = await runTasks(3, { executor, store: inner, clock });

    expect(result.exitReason).not.toBe("state_error");
    expect(storedAtCall).toEqual(Array.from({ length: result.iterations }, (_, index) => index));
  });
});

/** The iterations of the state stored now (-1 for none). */
async function storedIterations(store: StateStore): Promise<number> {
  const text = await store.get("term_001", "loop_state", "current");
  return text === null ? -1 : JSON.parse(text).loop_metadata.iterations;
}

/**
 * `scripted` as an executor that starts processes: it records its agent (`recordProcess`)
 * before "starting" it, as CommandExecutor does, runs `started` once the record is saved, and
 * does not run when the record cannot be saved.
 */
function recordingExecutor(
  scripted: ReturnType<typeof createScriptedExecutor>,
  started: () => Promise<void>,
): Executor {
  let agents = 0;
  return {
    name: scripted.name,
    specificationVersion: "v1",
    stopSurvivors: async () => ({ pids: [], signal: null, stopped: true }),
    execute: async (request, options) => {
      agents += 1;
      try {
        await options.recordProcess?.({ token: `token-${agents}`, command: "agent", host: "here" });
      } catch (error) {
        return { output: "", success: false, error: `the agent was not started: ${error}` };
      }
      await started();
      return scripted.execute(request, options);
    },
  };
}

/** A scripted agent that completes its task in every iteration, on a test clock. */
function scriptedAgent() {
  const clock = createTestClock({ start: START });
  return { clock, scripted: createScriptedExecutor(completesTask(), { clock }) };
}

/** `runLoop` on terminal term_001 over the seed plan cut down to `tasks` tasks. */
function runTasks(tasks: number, options: Omit<RunLoopOptions, "plan" | "terminalId">) {
  return runLoop({
    plan: memoryPlan(seedPlan(tasks), { path: "plan.md" }),
    terminalId: "term_001",
    ...options,
  });
}
