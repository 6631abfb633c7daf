import {
  createStateManager,
  DEFAULT_RESET_PARTS,
  type ExecutionResult,
  formatTimestamp,
  type LoopExitPayload,
  resetState,
  runLoop,
} from "@loop/core";
import {
  createScriptedExecutor,
  createTestClock,
  hitsUsageLimit,
  MemoryLogger,
  MemoryStateStore,
  makesNoProgress,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { BLOCKED_ANSWER } from "../support/blocked-answer.js";
import { START, taskList } from "./support.js";

// Scenario: the loop stops for a person (blocked, needs_input, usage_limit, circuit_open). What
// the agent said is kept where the person looks (the state's run, the loop_exit event), and a
// reset of the state gets the loop going again.

function loopExit(logger: MemoryLogger): LoopExitPayload | undefined {
  const event = logger.events.find((entry) => entry.event === "loop_exit");
  return event?.event === "loop_exit" ? event.payload : undefined;
}

const blockedAnswer: ExecutionResult = { success: true, output: BLOCKED_ANSWER };

const questionAnswer: ExecutionResult = {
  success: true,
  output:
    "Should I write the greeting in English or in French? Which port do you want the server on?",
};

describe("a loop that stops for a person", () => {
  it("blocked: keeps the agent's reason and recommendation in the state and the loop_exit event", async () => {
    const store = new MemoryStateStore();
    const logger = new MemoryLogger();
    const result = await runLoop({
      plan: memoryPlan(taskList(2), { path: "plan.md" }),
      executor: createScriptedExecutor([blockedAnswer]),
      store,
      logger,
      clock: createTestClock({ start: START }),
    });
    expect(result.exitReason).toBe("blocked");
    const report = {
      reason: "I cannot proceed without the Stripe API key.",
      questions: [],
      recommendation: "Add STRIPE_KEY to .env",
    };
    expect(result.state?.run?.agent_report).toEqual(report);
    expect(loopExit(logger)?.agent_report).toEqual(report);
    const stored = await createStateManager(store).readState("default");
    expect(stored.state?.run).toMatchObject({ exit_reason: "blocked", agent_report: report });
  });

  it("needs_input: keeps the questions the agent asked", async () => {
    const logger = new MemoryLogger();
    const result = await runLoop({
      plan: memoryPlan(taskList(2), { path: "plan.md" }),
      executor: createScriptedExecutor([questionAnswer, questionAnswer, questionAnswer]),
      store: new MemoryStateStore(),
      logger,
      clock: createTestClock({ start: START }),
      config: { stop_when: { question_loops: 2 } },
    });
    expect(result.exitReason).toBe("needs_input");
    const questions = [
      "Should I write the greeting in English or in French?",
      "Which port do you want the server on?",
    ];
    expect(result.state?.run?.agent_report?.questions).toEqual(questions);
    expect(loopExit(logger)?.agent_report?.questions).toEqual(questions);
  });

  it("usage_limit: keeps when the limit lifts and whether waiting lifts it", async () => {
    const resetAt = START.getTime() + 3_600_000;
    const logger = new MemoryLogger();
    const result = await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor: createScriptedExecutor([hitsUsageLimit(resetAt, { message: "limit reached" })]),
      store: new MemoryStateStore(),
      logger,
      clock: createTestClock({ start: START }),
      config: { usage_limit: { on_limit: "exit" } },
    });
    expect(result.exitReason).toBe("usage_limit");
    const limit = { reset_at: formatTimestamp(resetAt), waitable: true, message: "limit reached" };
    expect(result.state?.run?.usage_limit).toEqual(limit);
    expect(loopExit(logger)?.usage_limit).toEqual(limit);
    expect(result.state?.run?.agent_report).toBeUndefined();
  });

  it("other exits carry no report", async () => {
    const logger = new MemoryLogger();
    const result = await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor: createScriptedExecutor(makesNoProgress()),
      store: new MemoryStateStore(),
      logger,
      clock: createTestClock({ start: START }),
      config: { limits: { max_iterations: 1 } },
    });
    expect(result.exitReason).toBe("max_iterations");
    expect(result.state?.run?.agent_report).toBeUndefined();
    expect(loopExit(logger)).not.toHaveProperty("agent_report");
  });

  it("circuit_open: the next run refuses before the cooldown; after resetState it calls the agent again", async () => {
    const store = new MemoryStateStore();
    const clock = createTestClock({ start: START });
    const plan = memoryPlan(taskList(2), { path: "plan.md" });
    const config = { tasks: { max_attempts: 10 }, circuit_breaker: { no_progress_loops: 2 } };
    const executor = createScriptedExecutor(makesNoProgress(), { clock });
    const first = await runLoop({ plan, executor, store, clock, config });
    expect(first.exitReason).toBe("circuit_open");
    expect(executor.calls).toHaveLength(2);

    const again = await runLoop({ plan, executor, store, clock, config });
    expect(again.exitReason).toBe("circuit_open");
    expect(executor.calls).toHaveLength(2);

    const manager = createStateManager(store);
    const stored = (await manager.readState("default")).state;
    if (stored === null) throw new Error("no state");
    const reset = resetState(stored, {
      parts: DEFAULT_RESET_PARTS,
      now: formatTimestamp(clock.now()),
    });
    await manager.writeState("default", reset.state);

    const resumed = await runLoop({ plan, executor, store, clock, config });
    expect(executor.calls).toHaveLength(4);
    expect(resumed.exitReason).toBe("circuit_open");
    expect(executor.requests[2]?.iteration).toBe(1);
  });
});
