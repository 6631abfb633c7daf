import { describe, expect, it } from "vitest";
import { resolveConfig } from "../config/resolve-config.js";
import { analyzeResponse } from "../status/analyze-response.js";
import type { ExitPolicyInput, WrapUpObservation } from "./exit-policy-input.js";
import { isCompletionReason } from "./exit-reasons.js";
import { shouldExit } from "./should-exit.js";

// A finished plan is finished: one wrap-up iteration that reopens no work ends the loop
// `plan_complete`; an explicit EXIT_SIGNAL: true repeated with every box checked ends it
// whatever a contradictory STATUS says. Plain data in, a decision out.

const done = (count: number, total = 5) =>
  Array.from({ length: total }, (_, index) => ({ id: `TASK-${index + 1}`, done: index < count }));

const quietWrapUp: WrapUpObservation = {
  failed: false,
  filesChanged: 0,
  tasksAdded: 0,
  concerns: 0,
};

const block = (fields: string) => `---RALPH_STATUS---\n${fields}\n---END_RALPH_STATUS---`;

function input(overrides: Partial<ExitPolicyInput> = {}): ExitPolicyInput {
  return {
    config: resolveConfig({}),
    tasks: done(5),
    signals: analyzeResponse("ok"),
    iterations: 6,
    completionIndicators: 5,
    startedAt: 0,
    now: 60_000,
    wrapUp: quietWrapUp,
    ...overrides,
  };
}

describe("plan_complete: a wrap-up on a finished plan that reopened nothing", () => {
  it("ends the loop with plan_complete, a completion reason, though the agent never signalled", () => {
    const decision = shouldExit(input());
    expect(decision).toMatchObject({ exit: true, reason: "plan_complete", gatePassed: false });
    expect(isCompletionReason("plan_complete")).toBe(true);
    expect(decision.checks.find((check) => check.name === "plan_complete")).toMatchObject({
      required: true,
      met: true,
      detail: "every required task is checked and the wrap-up reopened no work",
    });
  });

  it("needs no completion indicators and no done signal: the checked plan and the quiet wrap-up are the evidence", () => {
    expect(shouldExit(input({ completionIndicators: 0 })).reason).toBe("plan_complete");
  });

  const reopened: [string, Partial<ExitPolicyInput>, string][] = [
    ["a file changed", { wrapUp: { ...quietWrapUp, filesChanged: 2 } }, "2 files changed"],
    [
      "a task added (open)",
      {
        tasks: [...done(5), { id: "TASK-6", done: false }],
        wrapUp: { ...quietWrapUp, tasksAdded: 1 },
      },
      "1 task added, 1 required task open",
    ],
    ["a task unchecked", { tasks: done(4) }, "1 required task open"],
    ["the run failed", { wrapUp: { ...quietWrapUp, failed: true } }, "the run failed"],
    ["no answer at all", { signals: null }, "the run failed"],
    [
      "EXIT_SIGNAL: false",
      {
        signals: analyzeResponse(
          `Found a bug.\n\n${block("STATUS: IN_PROGRESS\nEXIT_SIGNAL: false")}`,
        ),
      },
      "EXIT_SIGNAL: false",
    ],
    ["a concern of the user", { wrapUp: { ...quietWrapUp, concerns: 1 } }, "1 concern"],
    ["a failed verification", { verification: { passed: false } }, "verification failed"],
  ];

  it.each(reopened)("%s reopens work: the loop goes on", (_, overrides, why) => {
    const decision = shouldExit(input(overrides));
    expect(decision.exit).toBe(false);
    expect(decision.checks.find((check) => check.name === "plan_complete")?.detail).toBe(
      `the wrap-up reopened work: ${why}`,
    );
  });

  it("is not considered after an iteration that was not a wrap-up (the seed's scenario 2 goes on)", () => {
    const decision = shouldExit(input({ wrapUp: null }));
    expect(decision).toMatchObject({ exit: false, reason: null });
    expect(decision.checks.find((check) => check.name === "plan_complete")?.required).toBe(false);
  });

  it("the gate wins when the agent signals: all_tasks_complete", () => {
    const signalled = analyzeResponse(
      `Verified.\n\n${block("STATUS: COMPLETE\nEXIT_SIGNAL: true")}`,
    );
    expect(shouldExit(input({ signals: signalled })).reason).toBe("all_tasks_complete");
  });

  it("blocked wins: work the agent calls blocked is never complete", () => {
    const blocked = analyzeResponse(block("STATUS: BLOCKED\nEXIT_SIGNAL: false"));
    expect(shouldExit(input({ signals: blocked })).reason).toBe("blocked");
  });
});

describe("an explicit EXIT_SIGNAL: true repeated with every box checked", () => {
  const contradictory = analyzeResponse(
    `Implemented the last task.\n\n${block("STATUS: IN_PROGRESS\nEXIT_SIGNAL: true")}`,
  );
  const streak = (exitSignalStreak: number) => ({
    testOnlyStreak: 0,
    doneSignalStreak: 0,
    questionOnlyStreak: 0,
    exitSignalStreak,
  });
  const base = { signals: contradictory, wrapUp: null };

  it("ends the loop all_tasks_complete on the second answer in a row, STATUS: IN_PROGRESS overruled", () => {
    expect(contradictory.exitSignal).toEqual({ value: false, source: "status_block" });
    const decision = shouldExit(input({ ...base, counters: streak(2) }));
    expect(decision).toMatchObject({ exit: true, reason: "all_tasks_complete", gatePassed: true });
    expect(decision.checks.find((check) => check.name === "exit_signal")?.detail).toBe(
      "EXIT_SIGNAL is true (from status block), written 2 answers in a row with every task checked: STATUS: IN_PROGRESS overruled",
    );
  });

  it("does not end it on the first such answer", () => {
    expect(shouldExit(input({ ...base, counters: streak(1) })).exit).toBe(false);
  });

  it("does not end it while a task is open, however often it is repeated", () => {
    expect(shouldExit(input({ ...base, tasks: done(3), counters: streak(9) })).exit).toBe(false);
  });

  it("needs this answer to write it too: a streak with a quiet last answer is no signal", () => {
    const decision = shouldExit(
      input({ signals: analyzeResponse("ok"), wrapUp: null, counters: streak(3) }),
    );
    expect(decision.exit).toBe(false);
  });
});
