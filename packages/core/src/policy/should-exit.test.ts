import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../config/default-config.js";
import type { LoopConfigInput } from "../config/loop-config.js";
import { resolveConfig } from "../config/resolve-config.js";
import type { ResponseSignals } from "../status/response-signals.js";
import type { ExitPolicyInput } from "./exit-policy-input.js";
import { shouldExit } from "./should-exit.js";

function signals(overrides: Partial<ResponseSignals> = {}): ResponseSignals {
  return {
    statusBlock: null,
    exitSignal: null,
    doneSignal: false,
    testOnly: false,
    completionPhrases: [],
    completionIndicatorCount: 0,
    blocked: false,
    blockedReason: null,
    questions: [],
    askingQuestions: false,
    errorFingerprint: null,
    errorSummary: null,
    permissionDenials: [],
    promiseTag: null,
    contradictions: [],
    ...overrides,
  };
}

const exitTrue = signals({ exitSignal: { value: true, source: "status_block" }, doneSignal: true });
const exitFalse = signals({ exitSignal: { value: false, source: "status_block" } });
const start = Date.UTC(2026, 2, 14, 10, 0, 0);
const tasks = (done: number, total: number) =>
  Array.from({ length: total }, (_, index) => ({
    id: `TASK-00${index + 1}`,
    done: index < done,
  }));

function input(
  overrides: Partial<ExitPolicyInput> = {},
  config: LoopConfigInput = {},
): ExitPolicyInput {
  return {
    config: resolveConfig(config),
    tasks: tasks(0, 5),
    iterations: 1,
    completionIndicators: 0,
    startedAt: start,
    now: start + 60_000,
    ...overrides,
  };
}

describe("shouldExit: the seed's example scenarios (loop-code, AND logic)", () => {
  it("completion_indicators = 0 and EXIT_SIGNAL: true → continue (min not met)", () => {
    const decision = shouldExit(
      input({ tasks: tasks(5, 5), completionIndicators: 0, signals: exitTrue }),
    );
    expect(decision).toMatchObject({ exit: false, reason: null, gatePassed: false });
    const indicators = decision.checks.find((check) => check.name === "completion_indicators");
    expect(indicators).toMatchObject({ value: 0, threshold: 2, required: true, met: false });
  });

  it("completion_indicators = 5 and EXIT_SIGNAL: false → continue (signal not set)", () => {
    const decision = shouldExit(
      input({
        tasks: tasks(5, 5),
        completionIndicators: 5,
        planStatus: { exitSignal: false },
        iterations: 5,
      }),
    );
    expect(decision).toMatchObject({ exit: false, reason: null });
    expect(decision.checks.find((check) => check.name === "exit_signal")).toMatchObject({
      value: false,
      required: true,
      met: false,
    });
  });

  it("all tasks complete but verification failed → continue (verification required)", () => {
    const decision = shouldExit(
      input(
        {
          tasks: tasks(5, 5),
          completionIndicators: 5,
          signals: exitTrue,
          verification: { passed: false },
        },
        { exit_policy: { require_verification_pass: true } },
      ),
    );
    expect(decision).toMatchObject({ exit: false, reason: null, gatePassed: false });
    expect(decision.checks.find((check) => check.name === "verification_passed")).toMatchObject({
      value: false,
      required: true,
      met: false,
    });
  });

  it("enforcement.enabled: false, incomplete tasks, EXIT_SIGNAL: true → exit (minimal policy)", () => {
    const decision = shouldExit(
      input(
        { tasks: tasks(2, 5), completionIndicators: 2, signals: exitTrue },
        { enforcement: { enabled: false } },
      ),
    );
    expect(decision).toMatchObject({ exit: true, reason: "exit_signal", gatePassed: true });
    expect(decision.checks.find((check) => check.name === "all_tasks_complete")).toMatchObject({
      value: 3,
      required: false,
      met: false,
    });
  });

  it("enforcement.enabled: false also ignores a failed required verification", () => {
    const decision = shouldExit(
      input(
        {
          tasks: tasks(5, 5),
          completionIndicators: 2,
          signals: exitTrue,
          verification: { passed: false },
        },
        { enforcement: { enabled: false }, exit_policy: { require_verification_pass: true } },
      ),
    );
    expect(decision).toMatchObject({ exit: true, reason: "all_tasks_complete" });
  });

  it("all conditions met → exit (all enabled conditions satisfied)", () => {
    const decision = shouldExit(
      input(
        {
          tasks: tasks(5, 5),
          completionIndicators: 2,
          signals: exitTrue,
          verification: { passed: true },
        },
        { exit_policy: { require_verification_pass: true } },
      ),
    );
    expect(decision).toMatchObject({ exit: true, reason: "all_tasks_complete", gatePassed: true });
  });

  it("the seed's sample decision log: two tasks, exit all_tasks_complete on iteration 2", () => {
    const first = shouldExit(
      input({ tasks: tasks(1, 2), iterations: 1, completionIndicators: 1, signals: signals() }),
    );
    expect(first).toMatchObject({ exit: false, reason: null });
    const second = shouldExit(
      input({ tasks: tasks(2, 2), iterations: 2, completionIndicators: 2, signals: exitTrue }),
    );
    expect(second).toMatchObject({ exit: true, reason: "all_tasks_complete" });
  });
});

describe("shouldExit: EXIT_SIGNAL from the plan and the agent", () => {
  const complete = { tasks: tasks(5, 5), completionIndicators: 3, iterations: 3 };

  it("reads EXIT_SIGNAL: true from the plan's RALPH_STATUS", () => {
    expect(shouldExit(input({ ...complete, planStatus: { exitSignal: true } })).reason).toBe(
      "all_tasks_complete",
    );
  });

  it("an explicit EXIT_SIGNAL: false in the agent's answer beats a true in the plan", () => {
    const decision = shouldExit(
      input({ ...complete, planStatus: { exitSignal: true }, signals: exitFalse }),
    );
    expect(decision.exit).toBe(false);
    expect(decision.checks.find((check) => check.name === "exit_signal")?.detail).toBe(
      "EXIT_SIGNAL is false (from status block)",
    );
  });

  it("STATUS: COMPLETE with EXIT_SIGNAL: false does not pass the gate", () => {
    const contradictory = signals({
      exitSignal: { value: false, source: "status_block" },
      doneSignal: false,
      completionPhrases: ["all tasks are complete"],
      completionIndicatorCount: 1,
    });
    expect(shouldExit(input({ ...complete, signals: contradictory })).exit).toBe(false);
  });

  it("a done signal without an exit signal does not pass a gate that requires one", () => {
    const done = signals({ doneSignal: true, completionIndicatorCount: 2 });
    expect(shouldExit(input({ ...complete, signals: done })).exit).toBe(false);
  });

  it("require_exit_signal: false lets the gate pass on indicators and tasks alone", () => {
    const decision = shouldExit(input(complete, { exit_policy: { require_exit_signal: false } }));
    expect(decision).toMatchObject({ exit: true, reason: "all_tasks_complete" });
  });

  it("optional tasks never block completion", () => {
    const withOptional = [...tasks(5, 5), { id: "TASK-009", done: false, optional: true }];
    const decision = shouldExit(
      input({ ...complete, tasks: withOptional, planStatus: { exitSignal: true } }),
    );
    expect(decision.reason).toBe("all_tasks_complete");
  });
});

describe("shouldExit: safety exits at their exact thresholds (N−1 goes on, N exits)", () => {
  const counters = (overrides: Partial<NonNullable<ExitPolicyInput["counters"]>>) => ({
    testOnlyStreak: 0,
    doneSignalStreak: 0,
    questionOnlyStreak: 0,
    ...overrides,
  });
  const minute = 60_000;
  const cases: {
    reason: string;
    below: Partial<ExitPolicyInput>;
    at: Partial<ExitPolicyInput>;
    config?: LoopConfigInput;
  }[] = [
    { reason: "max_iterations", below: { iterations: 19 }, at: { iterations: 20 } },
    {
      reason: "budget_exhausted",
      below: { costUsd: 4.99 },
      at: { costUsd: 5 },
      config: { limits: { max_cost_usd: 5 } },
    },
    {
      reason: "time_limit",
      below: { now: start + 90 * minute - 1 },
      at: { now: start + 90 * minute },
      config: { limits: { max_duration_minutes: 90 } },
    },
    {
      reason: "test_saturation",
      below: { counters: counters({ testOnlyStreak: 2 }) },
      at: { counters: counters({ testOnlyStreak: 3 }) },
    },
    {
      reason: "done_signals",
      below: { counters: counters({ doneSignalStreak: 1 }) },
      at: { counters: counters({ doneSignalStreak: 2 }) },
    },
    {
      reason: "needs_input",
      below: { counters: counters({ questionOnlyStreak: 2 }) },
      at: { counters: counters({ questionOnlyStreak: 3 }) },
    },
    { reason: "circuit_open", below: { circuit: "HALF_OPEN" }, at: { circuit: "OPEN" } },
    {
      reason: "prd_complete",
      below: { stories: [{ passes: true }, { passes: false }] },
      at: { stories: [{ passes: true }, { passes: true }] },
    },
    {
      reason: "blocked",
      below: { signals: signals() },
      at: { signals: signals({ blocked: true }) },
    },
    {
      reason: "no_runnable_tasks",
      below: { selection: { kind: "task" } },
      at: { selection: { kind: "none" } },
    },
    { reason: "aborted", below: { aborted: false }, at: { aborted: true } },
  ];

  it.each(cases)("$reason", ({ reason, below, at, config }) => {
    expect(shouldExit(input(below, config))).toMatchObject({ exit: false, reason: null });
    expect(shouldExit(input(at, config))).toMatchObject({ exit: true, reason });
  });

  it("a stop_when detector set to 0 is disabled", () => {
    const decision = shouldExit(
      input(
        {
          counters: counters({ testOnlyStreak: 50, doneSignalStreak: 50, questionOnlyStreak: 50 }),
        },
        { stop_when: { test_only_loops: 0, done_signals: 0, question_loops: 0 } },
      ),
    );
    expect(decision.exit).toBe(false);
    const saturation = decision.checks.find((check) => check.name === "test_saturation");
    expect(saturation).toMatchObject({ required: false, met: false, threshold: null });
  });

  it("no cost or time cap by default", () => {
    const decision = shouldExit(input({ costUsd: 10_000, now: start + 10 ** 9 }));
    expect(decision.exit).toBe(false);
  });

  it("an empty prd does not count as complete", () => {
    expect(shouldExit(input({ stories: [] })).exit).toBe(false);
  });
});

describe("shouldExit: precedence and the checks list", () => {
  it("abort wins over everything, then blocked, then completion over the other safety exits", () => {
    const everything: Partial<ExitPolicyInput> = {
      tasks: tasks(5, 5),
      completionIndicators: 5,
      iterations: 20,
      signals: signals({ ...exitTrue, blocked: true }),
      circuit: "OPEN",
    };
    expect(shouldExit(input({ ...everything, aborted: true })).reason).toBe("aborted");
    expect(shouldExit(input(everything)).reason).toBe("blocked");
    expect(shouldExit(input({ ...everything, signals: exitTrue })).reason).toBe(
      "all_tasks_complete",
    );
    expect(shouldExit(input({ ...everything, tasks: tasks(4, 5) })).reason).toBe("blocked");
    expect(
      shouldExit(input({ ...everything, tasks: tasks(4, 5), signals: signals() })).reason,
    ).toBe("circuit_open");
    expect(
      shouldExit(
        input({ ...everything, tasks: tasks(4, 5), signals: signals(), circuit: "CLOSED" }),
      ).reason,
    ).toBe("max_iterations");
  });

  it("lists every condition, gate first, with value, threshold and whether it is required", () => {
    const decision = shouldExit(input({ iterations: 3, completionIndicators: 1 }));
    expect(decision.checks.map((check) => [check.name, check.kind])).toEqual([
      ["completion_indicators", "gate"],
      ["exit_signal", "gate"],
      ["all_tasks_complete", "gate"],
      ["verification_passed", "gate"],
      ["aborted", "safety"],
      ["blocked", "safety"],
      ["plan_complete", "safety"],
      ["prd_complete", "safety"],
      ["needs_input", "safety"],
      ["circuit_open", "safety"],
      ["test_saturation", "safety"],
      ["done_signals", "safety"],
      ["no_runnable_tasks", "safety"],
      ["budget_exhausted", "safety"],
      ["time_limit", "safety"],
      ["max_iterations", "safety"],
    ]);
    const unmet = decision.checks
      .filter((check) => check.required && !check.met)
      .map((check) => check.detail);
    expect(unmet).toContain("completion indicators 1 of 2 needed");
    expect(unmet).toContain("EXIT_SIGNAL is false (not given)");
    expect(unmet).toContain("5 required tasks open");
    expect(decision.checks.find((check) => check.name === "max_iterations")).toMatchObject({
      value: 3,
      threshold: 20,
      required: true,
      met: false,
      detail: "iteration 3 of 20",
    });
  });

  it("works with the full DEFAULT_CONFIG object", () => {
    const decision = shouldExit({ ...input(), config: DEFAULT_CONFIG });
    expect(decision.exit).toBe(false);
  });
});
