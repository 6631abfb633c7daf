import { describe, expect, it } from "vitest";
import { resolveConfig } from "../config/resolve-config.js";
import { analyzeResponse } from "../status/analyze-response.js";
import type { ResponseSignals } from "../status/response-signals.js";
import {
  type CompletionIndicatorInput,
  countsAsCompletionIndicator,
} from "./completion-indicator.js";
import { resolveExitSignal } from "./exit-signal.js";
import { shouldExit } from "./should-exit.js";

type Signals = NonNullable<CompletionIndicatorInput["signals"]>;

const exit = (value: boolean): Signals["exitSignal"] => ({ value, source: "status_block" });
const answer = (doneSignal: boolean, exitSignal: Signals["exitSignal"]): Signals => ({
  doneSignal,
  exitSignal,
});

describe("countsAsCompletionIndicator", () => {
  const cases: { name: string; input: CompletionIndicatorInput; expected: boolean }[] = [
    {
      name: "a task completed counts, whatever the answer says",
      input: { tasksCompleted: 1, signals: answer(false, exit(false)) },
      expected: true,
    },
    {
      name: "a task completed counts even when the run gave no answer",
      input: { tasksCompleted: 2, signals: null },
      expected: true,
    },
    {
      name: "no task and no answer does not count",
      input: { tasksCompleted: 0, signals: null },
      expected: false,
    },
    {
      name: "no task, a done signal without an exit signal counts",
      input: { tasksCompleted: 0, signals: answer(true, null) },
      expected: true,
    },
    {
      name: "no task, EXIT_SIGNAL: true counts",
      input: { tasksCompleted: 0, signals: answer(false, exit(true)) },
      expected: true,
    },
    {
      name: "no task, a kept completion promise counts",
      input: {
        tasksCompleted: 0,
        signals: answer(false, { value: true, source: "promise_tag" }),
      },
      expected: true,
    },
    {
      name: "no task, a done signal contradicted by EXIT_SIGNAL: false does not count",
      input: { tasksCompleted: 0, signals: answer(true, exit(false)) },
      expected: false,
    },
    {
      name: "no task, EXIT_SIGNAL: false alone does not count",
      input: { tasksCompleted: 0, signals: answer(false, exit(false)) },
      expected: false,
    },
    {
      name: "no task and an answer that claims nothing does not count",
      input: { tasksCompleted: 0, signals: answer(false, null) },
      expected: false,
    },
  ];

  it.each(cases)("$name", ({ input, expected }) => {
    expect(countsAsCompletionIndicator(input)).toBe(expected);
  });

  it("the seed's sample run: two iterations, one task each, reach the default min of 2", () => {
    const config = resolveConfig({});
    const plan = [
      { id: "TASK-001", done: false },
      { id: "TASK-002", done: false },
    ];
    let indicators = 0;
    const log: { iteration: number; indicators: number; exit: boolean; reason: string | null }[] =
      [];
    for (const [index, task] of plan.entries()) {
      task.done = true;
      const last = index === plan.length - 1;
      const signals: ResponseSignals = analyzeResponse(
        `Done with ${task.id}.\n\n---RALPH_STATUS---\nSTATUS: ${last ? "COMPLETE" : "IN_PROGRESS"}\nTASKS_COMPLETED_THIS_LOOP: 1\nEXIT_SIGNAL: ${last}\n---END_RALPH_STATUS---\n`,
      );
      if (countsAsCompletionIndicator({ tasksCompleted: 1, signals })) indicators += 1;
      const decision = shouldExit({
        config,
        tasks: plan,
        signals,
        iterations: index + 1,
        completionIndicators: indicators,
        startedAt: 0,
        now: (index + 1) * 300_000,
      });
      log.push({
        iteration: index + 1,
        indicators,
        exit: decision.exit,
        reason: decision.reason,
      });
    }
    expect(log).toEqual([
      { iteration: 1, indicators: 1, exit: false, reason: null },
      { iteration: 2, indicators: 2, exit: true, reason: "all_tasks_complete" },
    ]);
  });
});

describe("a real agent answer: STATUS: COMPLETE with EXIT_SIGNAL: false", () => {
  const text = `I implemented the password hashing utility in \`src/auth/hash.ts\` with bcrypt
and added unit tests for it. All tasks are complete and the tests pass.

---RALPH_STATUS---
STATUS: COMPLETE
TASKS_COMPLETED_THIS_LOOP: 0
FILES_MODIFIED: 2
TESTS_STATUS: PASSING
WORK_TYPE: IMPLEMENTATION
EXIT_SIGNAL: false
RECOMMENDATION: Continue with TASK-003 (login endpoint)
---END_RALPH_STATUS---
`;
  const signals = analyzeResponse(text);

  it("analyzeResponse reads an explicit false and no done signal", () => {
    expect(signals.exitSignal).toEqual({ value: false, source: "status_block" });
    expect(signals.doneSignal).toBe(false);
    expect(signals.completionPhrases).toEqual(["All tasks are complete"]);
  });

  it("it earns no completion indicator without a completed task", () => {
    expect(countsAsCompletionIndicator({ tasksCompleted: 0, signals })).toBe(false);
  });

  it("a box checked in the same iteration still earns the indicator", () => {
    expect(countsAsCompletionIndicator({ tasksCompleted: 1, signals })).toBe(true);
  });

  it("its EXIT_SIGNAL: false beats a stale EXIT_SIGNAL: true in the plan", () => {
    expect(resolveExitSignal({ exitSignal: true }, signals)).toEqual({
      value: false,
      source: "status_block",
    });
  });

  it("the loop goes on even with every box checked and indicators to spare", () => {
    const decision = shouldExit({
      config: resolveConfig({}),
      tasks: [{ id: "TASK-001", done: true }],
      planStatus: { exitSignal: true },
      signals,
      iterations: 4,
      completionIndicators: 4,
      startedAt: 0,
      now: 60_000,
    });
    expect(decision).toMatchObject({ exit: false, reason: null, gatePassed: false });
    expect(decision.checks.find((check) => check.name === "exit_signal")).toMatchObject({
      value: false,
      required: true,
      met: false,
      detail: "EXIT_SIGNAL is false (from status block)",
    });
  });
});
