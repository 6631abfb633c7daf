import { analyzeResponse, parseStatusBlock } from "@loop/core";
import { describe, expect, it } from "vitest";
import {
  completesTask,
  fails,
  hangs,
  hitsUsageLimit,
  makesNoProgress,
} from "./scripted-executor-answers.js";

describe("completesTask", () => {
  it("completes the task, and says one task done in an exact status block", () => {
    expect(completesTask()).toEqual({
      success: true,
      taskComplete: true,
      filesChanged: 1,
      output: [
        "Implemented the task and added tests for it; the tests pass.",
        "",
        "---RALPH_STATUS---",
        "STATUS: IN_PROGRESS",
        "TASKS_COMPLETED_THIS_LOOP: 1",
        "FILES_MODIFIED: 1",
        "TESTS_STATUS: PASSING",
        "WORK_TYPE: IMPLEMENTATION",
        "EXIT_SIGNAL: false",
        "RECOMMENDATION: Continue with the next task",
        "---END_RALPH_STATUS---",
      ].join("\n"),
    });
  });

  it("reads, for the loop's analysis, as progress without an exit", () => {
    const signals = analyzeResponse(completesTask().output);
    expect(signals.statusBlock?.problems).toEqual([]);
    expect(signals.exitSignal).toEqual({ value: false, source: "status_block" });
    expect(signals.doneSignal).toBe(false);
    expect(signals.completionIndicatorCount).toBe(0);
    expect(signals.blocked).toBe(false);
    expect(signals.askingQuestions).toBe(false);
    expect(signals.errorFingerprint).toBeNull();
  });

  it("says the whole project is complete with exitSignal", () => {
    const result = completesTask({ exitSignal: true });
    expect(parseStatusBlock(result.output)).toMatchObject({
      status: "COMPLETE",
      exitSignal: true,
      tasksCompletedThisLoop: 1,
      problems: [],
    });
    const signals = analyzeResponse(result.output);
    expect(signals.exitSignal).toEqual({ value: true, source: "status_block" });
    expect(signals.doneSignal).toBe(true);
    expect(signals.contradictions).toEqual([]);
  });

  it("takes what the answer says, and the session and cost, from its options", () => {
    const result = completesTask({
      summary: "Wrote the docs.",
      filesModified: 3,
      testsStatus: "NOT_RUN",
      workType: "DOCUMENTATION",
      recommendation: "Review the docs",
      sessionId: "session-1",
      costUsd: 0.25,
    });
    expect(result).toMatchObject({ filesChanged: 3, sessionId: "session-1", costUsd: 0.25 });
    expect(result.output.startsWith("Wrote the docs.\n\n---RALPH_STATUS---\n")).toBe(true);
    expect(parseStatusBlock(result.output)).toMatchObject({
      filesModified: 3,
      testsStatus: "NOT_RUN",
      workType: "DOCUMENTATION",
      recommendation: "Review the docs",
      problems: [],
    });
    expect(completesTask()).not.toHaveProperty("sessionId");
    expect(completesTask()).not.toHaveProperty("costUsd");
    expect(completesTask({ sessionId: null })).toHaveProperty("sessionId", null);
  });

  it("checks its options", () => {
    expect(() => completesTask({ filesModified: -1 })).toThrow("Option `filesModified`");
    expect(() => completesTask({ testsStatus: "GREEN" as "PASSING" })).toThrow(
      'Option `testsStatus` must be one of PASSING, FAILING, NOT_RUN, got "GREEN"',
    );
    expect(() => completesTask({ workType: "CODING" as "TESTING" })).toThrow("Option `workType`");
    expect(() => completesTask({ recommendation: "one\ntwo" })).toThrow("must be one line");
    expect(() => completesTask({ summary: "" })).toThrow("Option `summary`");
    expect(() => completesTask({ costUsd: Number.NaN })).toThrow("Option `costUsd`");
    expect(() => completesTask({ sessionId: 1 as unknown as string })).toThrow(
      "Option `sessionId`",
    );
    expect(() => completesTask({ exitSignal: "yes" as unknown as boolean })).toThrow(
      "Option `exitSignal` must be a boolean",
    );
  });
});

describe("makesNoProgress", () => {
  it("succeeds without completing the task, changing no file, in an exact status block", () => {
    const result = makesNoProgress();
    expect(result).toMatchObject({ success: true, taskComplete: false, filesChanged: 0 });
    expect(result.output).toBe(
      [
        "Investigated the task but changed nothing yet.",
        "",
        "---RALPH_STATUS---",
        "STATUS: IN_PROGRESS",
        "TASKS_COMPLETED_THIS_LOOP: 0",
        "FILES_MODIFIED: 0",
        "TESTS_STATUS: NOT_RUN",
        "WORK_TYPE: IMPLEMENTATION",
        "EXIT_SIGNAL: false",
        "RECOMMENDATION: Continue with the current task",
        "---END_RALPH_STATUS---",
      ].join("\n"),
    );
    const signals = analyzeResponse(result.output);
    expect(signals.doneSignal).toBe(false);
    expect(signals.testOnly).toBe(false);
    expect(signals.completionIndicatorCount).toBe(0);
  });

  it("can describe a test-only run", () => {
    const signals = analyzeResponse(makesNoProgress({ workType: "TESTING" }).output);
    expect(signals.testOnly).toBe(true);
  });
});

describe("fails", () => {
  it("fails the run with the message as error and output", () => {
    expect(fails("npm test exited with code 1")).toEqual({
      success: false,
      output: "Error: npm test exited with code 1",
      error: "npm test exited with code 1",
    });
    expect(analyzeResponse(fails("npm test exited with code 1").output).errorFingerprint).toMatch(
      /^[0-9a-f]{16}$/,
    );
  });

  it("needs a message", () => {
    expect(() => fails("")).toThrow("fails: the message must be a non-empty string");
    expect(() => fails(undefined as unknown as string)).toThrow(TypeError);
  });
});

describe("hitsUsageLimit", () => {
  it("reports a waitable usage limit with its reset time", () => {
    const resetAt = new Date("2026-03-14T15:00:00.000Z");
    const message = "Usage limit reached; it resets at 2026-03-14T15:00:00.000Z.";
    expect(hitsUsageLimit(resetAt)).toEqual({
      success: false,
      output: message,
      error: message,
      usageLimit: { resetAt: resetAt.getTime(), waitable: true, message },
    });
    expect(hitsUsageLimit(resetAt.getTime()).usageLimit?.resetAt).toBe(resetAt.getTime());
  });

  it("takes an unknown reset, a limit waiting does not lift, and the provider's words", () => {
    expect(hitsUsageLimit(null).usageLimit).toEqual({
      resetAt: null,
      waitable: true,
      message: "Usage limit reached.",
    });
    expect(
      hitsUsageLimit(null, { waitable: false, message: "Spend cap reached" }).usageLimit,
    ).toEqual({ resetAt: null, waitable: false, message: "Spend cap reached" });
  });

  it("checks the reset time and its options", () => {
    expect(() => hitsUsageLimit(new Date("soon"))).toThrow("got an invalid Date");
    expect(() => hitsUsageLimit(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(() => hitsUsageLimit(undefined as unknown as null)).toThrow(TypeError);
    expect(() => hitsUsageLimit(0, { waitable: 1 as unknown as boolean })).toThrow(
      "Option `waitable`",
    );
    expect(() => hitsUsageLimit(0, { message: "" })).toThrow("Option `message`");
  });
});

describe("hangs", () => {
  it("returns a fresh step each time", () => {
    expect(typeof hangs()).toBe("function");
    expect(hangs()).not.toBe(hangs());
  });
});
