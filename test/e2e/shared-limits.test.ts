import {
  createLoop,
  type DecisionEventOf,
  type ExecutionRequest,
  type LoopEvents,
  type LoopResult,
  previewIteration,
  type RunLoopOptions,
  runLoop,
  SHARED_LIMITS_RETRY_DELAYS_MS,
  type SharedLimits,
  SharedLimitsError,
  UnsupportedSharedLimitsError,
} from "@loop/core";
import {
  completesTask,
  createMemorySharedLimits,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  type MemorySharedLimits,
  MemoryStateStore,
  memoryPlan,
  type TestClock,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START, taskList } from "./support.js";

// Shared limits (issue 17): several loops hold one hourly call limit and one cost budget
// together, through one SharedLimits; here the in-memory one, on one virtual clock.

const hour = 3_600_000;

type WaitEvent = Parameters<LoopEvents["wait"]>[0];

interface Fleet {
  readonly clock: TestClock;
  readonly limits: MemorySharedLimits;
  /** Every agent call of every loop: which loop, at what virtual time. */
  readonly calls: { readonly loop: string; readonly at: number }[];
}

function fleet(options: { maxCallsPerHour?: number; maxCostUsd?: number }, start = START): Fleet {
  const clock = createTestClock({ start });
  return { clock, limits: createMemorySharedLimits({ ...options, clock }), calls: [] };
}

/** One loop of `tasks` tasks in the fleet, each call completing a task (and costing `costUsd`). */
function member(
  shared: Fleet,
  name: string,
  tasks: number,
  options: {
    readonly costUsd?: number;
    readonly sharedLimits?: SharedLimits;
    readonly config?: RunLoopOptions["config"];
  } = {},
) {
  const logger = new MemoryLogger();
  const waits: WaitEvent[] = [];
  const executor = createScriptedExecutor((request: ExecutionRequest) => {
    shared.calls.push({ loop: name, at: shared.clock.now() });
    return completesTask({
      exitSignal: request.task?.id === `TASK-00${tasks}`,
      costUsd: options.costUsd,
    });
  });
  const loop = createLoop({
    plan: memoryPlan(taskList(tasks), { path: `${name}/plan.md` }),
    executor,
    store: new MemoryStateStore(),
    logger,
    clock: shared.clock,
    terminalId: name,
    sharedLimits: options.sharedLimits ?? shared.limits,
    config: { limits: { max_iterations: 50 }, ...options.config },
  });
  loop.on("wait", (event) => waits.push(event));
  return { loop, logger, waits, executor };
}

/** Calls per UTC hour, from the first call's hour. */
function callsPerHour(calls: Fleet["calls"]): number[] {
  const first = Math.floor(START.getTime() / hour);
  const counts: number[] = [];
  for (const call of calls) {
    const index = Math.floor(call.at / hour) - first;
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return Array.from(counts, (count) => count ?? 0);
}

function eventsOf<Name extends "rate_limit_wait" | "loop_exit" | "error">(
  logger: MemoryLogger,
  name: Name,
): DecisionEventOf<Name>[] {
  return logger.events.filter((event) => event.event === name) as DecisionEventOf<Name>[];
}

describe("shared limits: loops sharing one hourly call limit", () => {
  it("three loops never make more calls in an hour than the fleet limit together, and all finish", async () => {
    const shared = fleet({ maxCallsPerHour: 4 });
    const members = ["a", "b", "c"].map((name) => member(shared, name, 3));
    const results = await Promise.all(members.map((entry) => entry.loop.run()));

    expect(results.map((result) => result.complete)).toEqual([true, true, true]);
    // 9 task calls (and whatever wrap-ups the loops ran), at most 4 in any UTC hour.
    expect(shared.calls.length).toBeGreaterThanOrEqual(9);
    const perHour = callsPerHour(shared.calls);
    expect(Math.max(...perHour)).toBe(4);
    expect(perHour.slice(0, -1).every((count) => count === 4)).toBe(true);
    // The fleet's own count agrees with what the agents saw in the last hour.
    expect(shared.limits.counters?.callsMade).toBe(perHour.at(-1));
  });

  it("each loop's wait shows the fleet's counts, scope fleet, until the next UTC hour", async () => {
    // 10:45 UTC: 15 minutes left in the window.
    const shared = fleet({ maxCallsPerHour: 2 }, new Date(START.getTime() + 45 * 60_000));
    const a = member(shared, "a", 2);
    const b = member(shared, "b", 2);
    await Promise.all([a.loop.run(), b.loop.run()]);

    const waits = [
      ...eventsOf(a.logger, "rate_limit_wait"),
      ...eventsOf(b.logger, "rate_limit_wait"),
    ];
    expect(waits.length).toBeGreaterThan(0);
    const first = waits.sort((x, y) => x.timestamp.localeCompare(y.timestamp))[0];
    expect(first?.payload).toEqual({
      reset_at: "2026-03-14T11:00:00.000Z",
      calls_made: 2,
      max_calls_per_hour: 2,
      wait_ms: 15 * 60_000,
      scope: "fleet",
    });
    const events = [...a.waits, ...b.waits];
    expect(events[0]).toMatchObject({
      kind: "rate_limit",
      scope: "fleet",
      waitMs: 15 * 60_000,
      message: "2 of 2 calls this hour across the fleet (memory)",
    });
    // The first two calls were made before 11:00, the others after.
    expect(shared.calls.slice(0, 2).every((call) => call.at < START.getTime() + hour)).toBe(true);
    expect(shared.calls.slice(2).every((call) => call.at >= START.getTime() + hour)).toBe(true);
  });

  it("keeps each loop's own limit too: the stricter one decides, and its wait is the loop's", async () => {
    const shared = fleet({ maxCallsPerHour: 10 });
    const a = member(shared, "a", 3, { config: { limits: { max_calls_per_hour: 1 } } });
    const result = await a.loop.run();
    expect(result.complete).toBe(true);
    expect(callsPerHour(shared.calls).slice(0, 3)).toEqual([1, 1, 1]);
    const waits = eventsOf(a.logger, "rate_limit_wait");
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((event) => event.payload.scope === undefined)).toBe(true);
    expect(waits[0]?.payload).toMatchObject({ calls_made: 1, max_calls_per_hour: 1 });
  });

  it("a fleet wait is cut short by the loop's signal: it stops with aborted at once", async () => {
    const shared = fleet({ maxCallsPerHour: 1 });
    await shared.limits.claimCall({ terminalId: "elsewhere", runId: null });
    const controller = new AbortController();
    const executor = createScriptedExecutor(completesTask());
    const run = createLoop({
      plan: memoryPlan(taskList(2), { path: "plan.md" }),
      executor,
      store: new MemoryStateStore(),
      clock: shared.clock,
      sharedLimits: shared.limits,
      signal: controller.signal,
    });
    run.on("wait", () => controller.abort());
    const result = await run.run();
    expect(result.exitReason).toBe("aborted");
    expect(executor.calls).toEqual([]);
    // The sleep was asked for the rest of the hour and ended when the signal fired.
    expect(shared.clock.now()).toBe(START.getTime());
  });
});

describe("shared limits: one budget", () => {
  it("stops every loop with budget_exhausted once the fleet spent it; loop_exit shows the fleet's counts", async () => {
    const shared = fleet({ maxCostUsd: 1 });
    const a = member(shared, "a", 5, { costUsd: 0.3 });
    const b = member(shared, "b", 5, { costUsd: 0.3 });
    const results = await Promise.all([a.loop.run(), b.loop.run()]);

    expect(results.map((result) => result.exitReason)).toEqual([
      "budget_exhausted",
      "budget_exhausted",
    ]);
    const spent = shared.limits.counters?.costUsd ?? 0;
    // Spent: at least the budget; beyond it by at most the calls in flight (one per loop).
    expect(spent).toBeGreaterThanOrEqual(1);
    expect(spent).toBeLessThanOrEqual(1 + 2 * 0.3);
    // Every loop's own spend counts: together they made the calls the budget allowed.
    const total = results.reduce((sum, result) => sum + result.costUsd, 0);
    expect(total).toBeCloseTo(spent, 10);
    const exit = eventsOf(a.logger, "loop_exit")[0]?.payload;
    expect(exit?.shared_limits).toMatchObject({ max_cost_usd: 1, max_calls_per_hour: null });
    expect(exit?.shared_limits?.cost_usd).toBeGreaterThanOrEqual(1);
  });

  it("keeps the loop's own budget: limits.max_cost_usd still stops it, without the fleet's record", async () => {
    const shared = fleet({ maxCostUsd: 100 });
    const a = member(shared, "a", 5, { costUsd: 0.5, config: { limits: { max_cost_usd: 1 } } });
    const result = await a.loop.run();
    expect(result.exitReason).toBe("budget_exhausted");
    expect(result.costUsd).toBe(1);
    expect(eventsOf(a.logger, "loop_exit")[0]?.payload.shared_limits).toBeUndefined();
    expect(shared.limits.counters?.costUsd).toBe(1);
  });
});

/** The memory limits, with `claimCall` (or `recordCost`) failing as `fail` says. */
function failing(
  limits: MemorySharedLimits,
  fail: { readonly claims?: number; readonly costs?: number },
): SharedLimits & { claimsTried: number } {
  let claimFailures = fail.claims ?? 0;
  let costFailures = fail.costs ?? 0;
  const wrapped = {
    name: "flaky",
    specificationVersion: "v1" as const,
    claimsTried: 0,
    claimCall: (...args: Parameters<SharedLimits["claimCall"]>) => {
      wrapped.claimsTried += 1;
      if (claimFailures > 0) {
        claimFailures -= 1;
        return Promise.reject(new Error("connection refused"));
      }
      return limits.claimCall(...args);
    },
    recordCost: (...args: Parameters<SharedLimits["recordCost"]>) => {
      if (costFailures > 0) {
        costFailures -= 1;
        return Promise.reject(new Error("connection reset"));
      }
      return limits.recordCost(...args);
    },
    releaseCall: limits.releaseCall,
  };
  return wrapped;
}

describe("shared limits that fail", () => {
  it("are retried with backoff on the clock, reported once, and the loop goes on once they answer", async () => {
    const shared = fleet({ maxCallsPerHour: 10 });
    const flaky = failing(shared.limits, { claims: 3 });
    const a = member(shared, "a", 2, { sharedLimits: flaky });
    const result = await a.loop.run();

    expect(result.complete).toBe(true);
    const errors = eventsOf(a.logger, "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.payload.error_type).toBe("SharedLimitsError");
    expect(errors[0]?.payload.error_message).toMatch(
      /"flaky" could not claim a call: connection refused/,
    );
    expect(errors[0]?.payload.traceback).toBeUndefined();
    // The first call came after the waits 1 s, 2 s and 5 s.
    expect(shared.calls[0]?.at).toBe(START.getTime() + 8_000);
    expect(shared.clock.sleeps.slice(0, 3)).toEqual([1_000, 2_000, 5_000]);
  });

  it("that keep failing stop the loop with limits_error after the bound, no agent called, no crash", async () => {
    const shared = fleet({ maxCallsPerHour: 10 });
    const flaky = failing(shared.limits, { claims: Number.POSITIVE_INFINITY });
    const a = member(shared, "a", 2, { sharedLimits: flaky });
    const result: LoopResult = await a.loop.run();

    expect(result.exitReason).toBe("limits_error");
    expect(SharedLimitsError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(
      /^The shared limits "flaky" failed 9 times over 228 s \(the last: .*connection refused\)\. The loop stops rather than make a call it cannot count against them\.$/,
    );
    expect(shared.calls).toEqual([]);
    expect(flaky.claimsTried).toBe(SHARED_LIMITS_RETRY_DELAYS_MS.length + 1);
    expect(shared.clock.now() - START.getTime()).toBe(228_000);
    // Reported once when they began to fail, once more as the error that stopped the loop.
    expect(eventsOf(a.logger, "error")).toHaveLength(2);
    expect(eventsOf(a.logger, "loop_exit")[0]?.payload.exit_reason).toBe("limits_error");
  });

  it("a cost that could not be recorded is recorded before the next claim: no call is made until it is", async () => {
    const shared = fleet({ maxCostUsd: 10 });
    const flaky = failing(shared.limits, { costs: 2 });
    const a = member(shared, "a", 2, { costUsd: 0.25, sharedLimits: flaky });
    const result = await a.loop.run();
    expect(result.complete).toBe(true);
    // The first call's cost failed in the background, then once more before the second claim:
    // the second call waited for the retry (1 s) that recorded it.
    expect(shared.calls.map((call) => call.at - START.getTime()).slice(0, 2)).toEqual([0, 1_000]);
    expect(eventsOf(a.logger, "error")).toHaveLength(1);
    expect(eventsOf(a.logger, "error")[0]?.payload.error_message).toMatch(/connection reset/);
    // Every cost recorded in the end, none twice.
    expect(shared.limits.counters?.costUsd).toBe(result.costUsd);
    expect(result.costUsd).toBeGreaterThanOrEqual(0.5);
  });

  it("an implementation of another version is refused before any call (limits_error)", async () => {
    const shared = fleet({});
    const a = member(shared, "a", 1, {
      sharedLimits: { ...shared.limits, specificationVersion: "v2" } as unknown as SharedLimits,
    });
    const result = await a.loop.run();
    expect(result.exitReason).toBe("limits_error");
    expect(UnsupportedSharedLimitsError.isInstance(result.error)).toBe(true);
    expect(shared.calls).toEqual([]);
  });
});

describe("a claimed call never made", () => {
  it("is given back when the state write before the agent fails", async () => {
    const shared = fleet({ maxCallsPerHour: 5 });
    const store = new MemoryStateStore();
    const set = store.set.bind(store);
    let writes = 0;
    store.set = (...args) => {
      if (args[1] === "loop_state") {
        writes += 1;
        // The run's first write succeeds; the one saving the call's count fails.
        if (writes === 2) return Promise.reject(new Error("disk full"));
      }
      return set(...args);
    };
    const result = await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor: createScriptedExecutor(completesTask()),
      store,
      clock: shared.clock,
      sharedLimits: shared.limits,
    });
    expect(result.exitReason).toBe("state_error");
    expect(shared.limits.calls.map((call) => call.method)).toEqual(["claimCall", "releaseCall"]);
    expect(shared.limits.counters?.callsMade).toBe(0);
  });
});

describe("a dry run with shared limits", () => {
  it("reads the fleet's counts without claiming: the fleet's wait, then its spent budget", async () => {
    const shared = fleet(
      { maxCallsPerHour: 1, maxCostUsd: 1 },
      new Date(START.getTime() + 40 * 60_000),
    );
    await shared.limits.claimCall({ terminalId: "elsewhere", runId: null });
    const options = {
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor: createScriptedExecutor(completesTask()),
      store: new MemoryStateStore(),
      clock: shared.clock,
      sharedLimits: shared.limits,
    };
    const full = await previewIteration(options);
    expect(full.rateLimitWaitMs).toBe(20 * 60_000);
    expect(full.sharedUsage).toMatchObject({ callsThisHour: 1, maxCallsPerHour: 1 });
    expect(full.request?.task?.id).toBe("TASK-001");
    expect(shared.limits.counters?.callsMade).toBe(1);

    await shared.limits.recordCost({ terminalId: "elsewhere", runId: null, costUsd: 1 });
    const spent = await previewIteration(options);
    expect(spent.decision).toMatchObject({ exit: true, reason: "budget_exhausted" });
    expect(spent.request).toBeNull();
  });
});
