import {
  createStateManager,
  LoopStateSchema,
  MAX_USAGE_LIMIT_WAIT_MS,
  runLoop,
  UNKNOWN_RESET_WAIT_MS,
} from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  hitsUsageLimit,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START, taskList } from "./support.js";

// What an executor reports comes from the agent's own output. Implausible values — a negative
// cost, a reset time that is no time, a reset in year 5138 — never end the loop: each is left
// out (or capped) and logged.

const problemsOf = (logger: MemoryLogger) =>
  logger
    .ofType("error")
    .filter((event) => event.payload.error_type === "ImplausibleAgentReport")
    .map((event) => event.payload.error_message);

describe("implausible values in what the agent reports", () => {
  it("a negative cost and token count are left out: the state stays valid, the loop goes on", async () => {
    const store = new MemoryStateStore();
    const logger = new MemoryLogger();
    const result = await runLoop({
      plan: memoryPlan(taskList(2), { path: "plan.md" }),
      executor: createScriptedExecutor([
        { ...completesTask(), costUsd: -1000, tokens: { input: -5, output: 3 } },
        { ...completesTask({ exitSignal: true }), costUsd: 0.25 },
      ]),
      store,
      logger,
      clock: createTestClock({ start: START }),
    });
    expect(result).toMatchObject({ exitReason: "all_tasks_complete", costUsd: 0.25 });
    const { state } = await createStateManager(store).readState("default");
    expect(LoopStateSchema.safeParse(state).success).toBe(true);
    expect(state?.cost_usd).toBe(0.25);
    expect(problemsOf(logger)).toEqual([
      "the agent reported a cost of -1000 USD, which no run costs: left out",
      "the agent reported -5 input and 3 output tokens: left out",
    ]);
  });

  it("a reset in year 5138, or at 1e20 s, is waited out for 8 days at most; one that is no time is unknown", async () => {
    const clock = createTestClock({ start: START });
    const logger = new MemoryLogger();
    const farAway = Date.UTC(5138, 0, 1);
    const limit = (resetAt: number) => ({
      ...hitsUsageLimit(null),
      usageLimit: { resetAt, waitable: true, message: "limit" },
    });
    const result = await runLoop({
      plan: memoryPlan(taskList(2), { path: "plan.md" }),
      executor: createScriptedExecutor(
        [
          hitsUsageLimit(farAway),
          limit(1e20 * 1000),
          limit(Number.NaN),
          completesTask(),
          completesTask({ exitSignal: true }),
        ],
        { clock },
      ),
      store: new MemoryStateStore(),
      logger,
      clock,
    });
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(logger.ofType("usage_limit_wait").map((event) => event.payload.wait_ms)).toEqual([
      MAX_USAGE_LIMIT_WAIT_MS,
      MAX_USAGE_LIMIT_WAIT_MS,
      UNKNOWN_RESET_WAIT_MS,
    ]);
    expect(problemsOf(logger)).toEqual([
      `the usage limit resets more than 8 days from now (at ${farAway} ms since 1970): waiting 8 days at most`,
      "the usage limit resets more than 8 days from now (at 1e+23 ms since 1970): waiting 8 days at most",
      "the usage limit's reset time NaN is not a time: taken as unknown",
    ]);
  });
});
