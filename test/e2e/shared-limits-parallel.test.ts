import {
  createLoop,
  type DecisionEvent,
  type DecisionEventOf,
  type ExecutionRequest,
  type Executor,
  type SharedLimits,
  updatePlan,
} from "@loop/core";
import {
  completesTask,
  createMemorySharedLimits,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
  type TestClock,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { MemoryWorkspaces } from "../support/memory-workspaces.js";
import { START, taskList } from "./support.js";

// A parallel run's workers share their loop's shared limits: each worker's call is claimed
// from the fleet before its agent starts, and the fleet's refusal holds new starts back.

const hour = 3_600_000;

/** A plan of `count` tasks under one `(parallel)` heading. */
function parallelPlan(count: number): string {
  const tasks = Array.from(
    { length: count },
    (_, index) => `- [ ] TASK-${index + 1} Endpoint ${index + 1}`,
  );
  return ["# Plan", "", "## Endpoints (parallel)", "", ...tasks, ""].join("\n");
}

/** An agent that works 10 virtual minutes in its working copy, then checks its box there. */
function worker(workspaces: MemoryWorkspaces, clock: TestClock, costUsd = 0) {
  const starts: { readonly task: string; readonly at: number }[] = [];
  const calls = { count: 0 };
  const executor: Executor = {
    name: "stand-in",
    specificationVersion: "v1",
    async execute(request: ExecutionRequest, { signal }) {
      calls.count += 1;
      if (request.task === null || request.workspace === undefined) {
        return { output: "All tasks are done.", success: true };
      }
      const id = request.task.id;
      starts.push({ task: id, at: clock.now() });
      await clock.sleep(10 * 60_000, signal);
      if (signal.aborted) return { output: "", success: false, error: "stopped" };
      const copy = workspaces.workspaceOf(id);
      copy.files.set(`src/${id}.ts`, "export {};\n");
      await copy.plan.write(updatePlan(await copy.plan.read(), { check: [id] }));
      return { output: `Done with ${id}.`, success: true, costUsd };
    },
  };
  return { executor, starts, calls };
}

function parallelLoop(
  limits: SharedLimits,
  clock: TestClock,
  tasks: number,
  costUsd = 0,
  logger = new MemoryLogger(),
) {
  const workspaces = new MemoryWorkspaces({ "README.md": "# app\n" });
  const agent = worker(workspaces, clock, costUsd);
  const loop = createLoop({
    plan: memoryPlan(parallelPlan(tasks), { path: "plan.md" }),
    executor: agent.executor,
    store: new MemoryStateStore(),
    logger,
    clock,
    terminalId: "parallel",
    sharedLimits: limits,
    config: { limits: { max_iterations: 50 } },
    parallel: { workers: 4, workspaces },
  });
  return { loop, logger, starts: agent.starts, calls: agent.calls };
}

const eventsOf = <Name extends "rate_limit_wait" | "loop_exit">(logger: MemoryLogger, name: Name) =>
  logger.events.filter((event) => event.event === name) as DecisionEventOf<Name>[];

describe("shared limits in a parallel run", () => {
  it("its workers claim from the fleet: no more start in an hour than the fleet allows, with another loop counted too", async () => {
    const clock = createTestClock({ start: START });
    const limits = createMemorySharedLimits({ maxCallsPerHour: 3, clock });
    const parallel = parallelLoop(limits, clock, 4);
    // A serial loop elsewhere in the fleet takes one call of the first hour.
    const serialCalls: number[] = [];
    const serial = createLoop({
      plan: memoryPlan(taskList(1), { path: "other/plan.md" }),
      executor: createScriptedExecutor(() => {
        serialCalls.push(clock.now());
        return completesTask({ exitSignal: true });
      }),
      store: new MemoryStateStore(),
      clock,
      terminalId: "serial",
      sharedLimits: limits,
    });
    const [serialResult, parallelResult] = await Promise.all([serial.run(), parallel.loop.run()]);

    expect(serialResult.complete).toBe(true);
    expect(parallelResult.complete).toBe(true);
    const startsByHour = new Map<number, number>();
    for (const at of [...serialCalls, ...parallel.starts.map((start) => start.at)]) {
      const index = Math.floor((at - START.getTime()) / hour);
      startsByHour.set(index, (startsByHour.get(index) ?? 0) + 1);
    }
    expect(Math.max(...startsByHour.values())).toBeLessThanOrEqual(3);
    const granted = limits.calls.filter((call) => call.method === "claimCall" && call.granted);
    // Every agent call (the parallel loop's wrap-up included) was granted, none more.
    expect(granted.length).toBe(serialCalls.length + parallel.calls.count);
    // One task's worker waited for 11:00 UTC, and the run recorded the fleet's wait once.
    expect(
      parallel.starts.filter((start) => start.at >= START.getTime() + hour).length,
    ).toBeGreaterThan(0);
    const waits = eventsOf(parallel.logger, "rate_limit_wait");
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits[0]?.payload).toMatchObject({
      scope: "fleet",
      calls_made: 3,
      max_calls_per_hour: 3,
    });
    expect(new Set(waits.map((event) => event.payload.reset_at)).size).toBe(waits.length);
  });

  it("the fleet's budget stops every worker: budget_exhausted, with the fleet's counts", async () => {
    const clock = createTestClock({ start: START });
    const limits = createMemorySharedLimits({ maxCostUsd: 1, clock });
    const parallel = parallelLoop(limits, clock, 8, 0.5);
    const result = await parallel.loop.run();

    expect(result.exitReason).toBe("budget_exhausted");
    expect(parallel.starts.length).toBeLessThan(8);
    // No call was granted once the recorded spend reached the budget; the spend went beyond it
    // by no more than the calls in flight (4 workers).
    let spent = 0;
    for (const call of limits.calls) {
      if (call.method === "recordCost") spent += call.costUsd ?? 0;
      if (call.method === "claimCall" && call.granted) expect(spent).toBeLessThan(1);
    }
    expect(spent).toBeGreaterThanOrEqual(1);
    expect(spent).toBeLessThanOrEqual(1 + 4 * 0.5);
    expect(limits.calls.some((call) => call.method === "claimCall" && !call.granted)).toBe(true);
    // Every agent that started had its call granted, and no granted call went unused.
    const granted = limits.calls.filter((call) => call.method === "claimCall" && call.granted);
    expect(parallel.calls.count).toBe(granted.length);
    const exit = eventsOf(parallel.logger, "loop_exit")[0]?.payload;
    expect(exit?.shared_limits).toMatchObject({ max_cost_usd: 1, max_calls_per_hour: null });
    expect(exit?.shared_limits?.cost_usd).toBeGreaterThanOrEqual(1);
  });

  it("a finished task is settled at once while the next start's claim retries through failing shared limits", async () => {
    const clock = createTestClock({ start: START });
    const memory = createMemorySharedLimits({ clock });
    const agentsEnd = START.getTime() + 10 * 60_000;
    // Grants the first four workers' calls, then fails on every claim from when their agents end.
    const failing: SharedLimits = {
      name: "failing",
      specificationVersion: "v1",
      claimCall: (caller, options) => {
        if (clock.now() >= agentsEnd) return Promise.reject(new Error("connection refused"));
        return memory.claimCall(caller, options);
      },
      recordCost: (record, options) => memory.recordCost(record, options),
    };
    // When each task's iteration was settled (its first iteration_end), on the loop's clock.
    const settledAt = new Map<string, number>();
    class TimedLogger extends MemoryLogger {
      override log(event: DecisionEvent): void {
        if (event.event === "iteration_end") {
          for (const id of event.payload.tasks_completed) {
            if (!settledAt.has(id)) settledAt.set(id, clock.now());
          }
        }
        super.log(event);
      }
    }
    const parallel = parallelLoop(failing, clock, 6, 0, new TimedLogger());
    const result = await parallel.loop.run();

    expect(result.exitReason).toBe("limits_error");
    expect(parallel.starts.map((start) => start.task)).toEqual([
      "TASK-1",
      "TASK-2",
      "TASK-3",
      "TASK-4",
    ]);
    // The finished tasks were settled as their agents ended (10 minutes in), not once the next
    // start's claim gave up retrying (3 minutes 48 seconds later).
    expect([...settledAt.entries()]).toEqual(
      ["TASK-1", "TASK-2", "TASK-3", "TASK-4"].map((id) => [id, agentsEnd]),
    );
    expect(clock.now()).toBeGreaterThanOrEqual(agentsEnd + 228_000);
  });
});
