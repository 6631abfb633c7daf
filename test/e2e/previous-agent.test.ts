import {
  type AgentProcess,
  createInitialState,
  createStateManager,
  type ExecuteOptions,
  type ExecutionRequest,
  type ExecutionResult,
  type Executor,
  type LoopState,
  runLoop,
  type StateStore,
  type SurvivorReport,
} from "@loop/core";
import { completesTask, MemoryLogger, MemoryStateStore, memoryPlan } from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START, taskList } from "./support.js";

// The engine's side of agents that outlive a killed loop: while an agent runs its process is
// recorded in loop_state.json (`agent_process`), and a run that finds a record left behind asks
// the executor to stop what is left of that agent before it starts its own, and logs it. The
// processes themselves are @loop/exec's (test/exec-agent-survivors.test.ts) and the CLI's
// (test/cli/kill.test.ts); here the executor only describes a process.

const terminalId = "term_001";
const agent: AgentProcess = { token: "a1b2c3", command: "my-agent", host: "build-7" };

/** What the executor saw of the state while its agent "ran", and what it was asked to stop. */
interface Observed {
  readonly during: (LoopState["agent_process"] | undefined)[];
  readonly stopped: AgentProcess[];
  readonly calls: string[];
}

/**
 * An executor that describes a process to `recordProcess` (before its start, then with its
 * group), reads the state meanwhile, and completes the task.
 */
function describingExecutor(
  store: StateStore,
  report: SurvivorReport | null,
): Executor & { observed: Observed } {
  const manager = createStateManager(store);
  const observed: Observed = { during: [], stopped: [], calls: [] };
  const readRecord = async () => (await manager.readState(terminalId)).state?.agent_process;
  const executor: Executor & { observed: Observed } = {
    name: "describing",
    specificationVersion: "v1",
    observed,
    async execute(request: ExecutionRequest, options: ExecuteOptions): Promise<ExecutionResult> {
      observed.calls.push(`execute ${request.task?.id ?? "wrap-up"}`);
      await options.recordProcess?.(agent);
      observed.during.push(await readRecord());
      await options.recordProcess?.({ ...agent, pgid: 4242, processStart: "linux:boot:99" });
      observed.during.push(await readRecord());
      return completesTask({ exitSignal: true });
    },
  };
  if (report !== null) {
    executor.stopSurvivors = async (previous) => {
      observed.calls.push("stopSurvivors");
      observed.stopped.push(previous);
      return report;
    };
  }
  return executor;
}

/** A store holding a state whose previous run was killed while its agent ran. */
async function storeWithSurvivor(): Promise<MemoryStateStore> {
  const store = new MemoryStateStore();
  const state: LoopState = {
    ...createInitialState({ planPath: "plan.md", now: START.toISOString() }),
    agent_process: {
      ...agent,
      iteration: 3,
      started_at: "2026-03-14T09:59:00.000Z",
      pgid: 4242,
      process_start: "linux:boot:99",
    },
  };
  await createStateManager(store).writeState(terminalId, state);
  return store;
}

describe("agent_process", () => {
  it("is in the state while the agent runs, first without its group, then with it, and gone after", async () => {
    const store = new MemoryStateStore();
    const executor = describingExecutor(store, null);
    const result = await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor,
      store,
      terminalId,
    });
    expect(result.exitReason).toBe("all_tasks_complete");
    const [before, after] = executor.observed.during;
    expect(before).toEqual({ ...agent, iteration: 1, started_at: expect.any(String) });
    expect(after).toEqual({
      ...agent,
      iteration: 1,
      started_at: before?.started_at,
      pgid: 4242,
      process_start: "linux:boot:99",
    });
    expect(result.state?.agent_process).toBeUndefined();
    const stored = await createStateManager(store).readState(terminalId);
    expect(stored.state).not.toHaveProperty("agent_process");
  });

  it("left by a killed run: the executor stops what is left before any agent starts, and it is logged", async () => {
    const store = await storeWithSurvivor();
    const logger = new MemoryLogger();
    const executor = describingExecutor(store, {
      pids: [4242, 4250],
      signal: "SIGKILL",
      stopped: true,
    });
    const result = await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor,
      store,
      logger,
      terminalId,
    });
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(executor.observed.calls).toEqual([
      "stopSurvivors",
      "execute TASK-001",
      "execute wrap-up",
    ]);
    expect(executor.observed.stopped).toEqual([
      { ...agent, pgid: 4242, processStart: "linux:boot:99" },
    ]);
    expect(logger.events.map((event) => event.event)[0]).toBe("previous_agent_stopped");
    expect(logger.ofType("previous_agent_stopped")[0]?.payload).toEqual({
      iteration: 3,
      command: "my-agent",
      pgid: 4242,
      started_at: "2026-03-14T09:59:00.000Z",
      pids: [4242, 4250],
      signal: "SIGKILL",
      stopped: true,
    });
    expect(result.state?.agent_process).toBeUndefined();
  });

  it("left by a killed run whose agent had ended: nothing is logged, the record is dropped", async () => {
    const store = await storeWithSurvivor();
    const logger = new MemoryLogger();
    const executor = describingExecutor(store, { pids: [], signal: null, stopped: true });
    const result = await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor,
      store,
      logger,
      terminalId,
    });
    expect(executor.observed.calls).toEqual([
      "stopSurvivors",
      "execute TASK-001",
      "execute wrap-up",
    ]);
    expect(logger.ofType("previous_agent_stopped")).toEqual([]);
    expect(result.state?.agent_process).toBeUndefined();
  });

  it("with an executor that cannot stop processes: the record is dropped and the run goes on", async () => {
    const store = await storeWithSurvivor();
    const executor = describingExecutor(store, null);
    const result = await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor,
      store,
      terminalId,
    });
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(executor.observed.calls).toEqual(["execute TASK-001", "execute wrap-up"]);
  });

  it("that cannot be saved: the agent is not started and the loop stops with state_error", async () => {
    const inner = new MemoryStateStore();
    const store: StateStore = {
      specificationVersion: "v1",
      get: (id, key, version) => inner.get(id, key, version),
      delete: (id, key) => inner.delete(id, key),
      lock: (id) => inner.lock(id),
      async set(id, key, text) {
        if (text.includes('"agent_process"')) throw new Error("ENOSPC: no space left on device");
        await inner.set(id, key, text);
      },
    };
    let started = false;
    const executor: Executor = {
      name: "careful",
      specificationVersion: "v1",
      async execute(_request, options) {
        try {
          await options.recordProcess?.(agent);
        } catch {
          return { output: "", success: false, error: "the agent was not started" };
        }
        started = true;
        return completesTask({ exitSignal: true });
      },
    };
    const result = await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor,
      store,
      terminalId,
    });
    expect(started).toBe(false);
    expect(result.exitReason).toBe("state_error");
    expect(result.error?.message).toContain("ENOSPC");
  });
});
