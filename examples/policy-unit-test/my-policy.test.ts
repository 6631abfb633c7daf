import {
  type ExitDecision,
  type ExitPolicyInput,
  resolveConfig,
  runLoop,
  shouldExit,
} from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryStateStore,
  makesNoProgress,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { costPerTaskPolicy } from "./my-policy.js";

const policy = costPerTaskPolicy({ maxUsdPerTask: 2 });

/** What the engine would pass after iteration 4 of a 4-task plan: plain data, built by hand. */
function inputWith(checked: number, costUsd: number): ExitPolicyInput {
  return {
    config: resolveConfig({ limits: { max_iterations: 30 } }),
    tasks: ["TASK-001", "TASK-002", "TASK-003", "TASK-004"].map((id, index) => ({
      id,
      done: index < checked,
    })),
    iterations: 4,
    completionIndicators: checked,
    costUsd,
    startedAt: 0,
    now: 20 * 60_000,
  };
}

/** The policy's decision, with the SDK's `shouldExit` as the default, as the engine calls it. */
const decide = (input: ExitPolicyInput): ExitDecision => policy(input, shouldExit);

describe("costPerTaskPolicy on plain data", () => {
  it("goes on while the spend is within $2 per checked task plus the one in progress", () => {
    expect(decide(inputWith(0, 1.99))).toMatchObject({ exit: false, reason: null });
    expect(decide(inputWith(3, 7.5))).toMatchObject({ exit: false, reason: null });
    // Exactly at the allowance is not over it.
    expect(decide(inputWith(1, 4))).toMatchObject({ exit: false, reason: null });
  });

  it("stops once the spend is over the allowance, and says why", () => {
    const decision = decide(inputWith(1, 4.01));
    expect(decision).toMatchObject({ exit: true, reason: "budget_exhausted" });
    expect(decision.checks.find((check) => check.name === "budget_exhausted")).toMatchObject({
      value: 4.01,
      threshold: 4,
      required: true,
      met: true,
      detail: "cost $4.01 for 1 checked task: over $2.00 a task",
    });
    expect(decide(inputWith(0, 2.01)).reason).toBe("budget_exhausted");
  });

  it("goes on with the default's decision, checks untouched, while within the allowance", () => {
    const input = inputWith(2, 3);
    expect(decide(input)).toEqual(shouldExit(input));
  });

  it("keeps the built-in exits and their reasons, completion first however costly", () => {
    const finished: ExitPolicyInput = {
      ...inputWith(4, 50),
      planStatus: { exitSignal: true },
    };
    expect(decide(finished).reason).toBe("all_tasks_complete");
    expect(decide({ ...inputWith(1, 50), aborted: true }).reason).toBe("aborted");
    expect(decide({ ...inputWith(1, 1), iterations: 30 }).reason).toBe("max_iterations");
  });

  it("asks the default policy it is given, not shouldExit directly", () => {
    const stop: ExitDecision = { exit: true, reason: "time_limit", gatePassed: false, checks: [] };
    expect(policy(inputWith(3, 0), () => stop)).toBe(stop);
  });

  it("refuses an allowance that is not above 0", () => {
    expect(() => costPerTaskPolicy({ maxUsdPerTask: 0 })).toThrow(RangeError);
    expect(() => costPerTaskPolicy({ maxUsdPerTask: Number.NaN })).toThrow(RangeError);
  });
});

describe("costPerTaskPolicy in a loop", () => {
  // One task done for $1.50, then an agent that spends $1.50 an iteration and gets nowhere.
  const plan = "# Plan\n\n- [ ] TASK-001 Parse the input\n- [ ] TASK-002 Print the report\n";
  const script = () =>
    createScriptedExecutor((_request, { call }) =>
      call === 1 ? completesTask({ costUsd: 1.5 }) : makesNoProgress({ costUsd: 1.5 }),
    );

  it("stops the loop with budget_exhausted at the iteration that goes over", async () => {
    const executor = script();
    const result = await runLoop({
      plan: memoryPlan(plan),
      executor,
      store: new MemoryStateStore(),
      clock: createTestClock(),
      policy,
    });
    // $1.50 and $3.00 are within $4.00 (one checked task plus the one in progress); $4.50 is not.
    expect(result).toMatchObject({
      exitReason: "budget_exhausted",
      complete: false,
      iterations: 3,
      tasksCompleted: ["TASK-001"],
      costUsd: 4.5,
    });
    expect(executor.calls).toHaveLength(3);
    expect(result.decision?.checks.find((check) => check.name === "budget_exhausted")?.detail).toBe(
      "cost $4.50 for 1 checked task: over $2.00 a task",
    );
  });

  it("without it, the same agent runs on until TASK-002 has used its attempts", async () => {
    const executor = script();
    const result = await runLoop({
      plan: memoryPlan(plan),
      executor,
      store: new MemoryStateStore(),
      clock: createTestClock(),
    });
    // Three attempts at TASK-002 (tasks.max_attempts), so $6.00 before the loop gives up.
    expect(result).toMatchObject({ exitReason: "no_runnable_tasks", iterations: 4, costUsd: 6 });
  });
});
