import { describe, expect, it } from "vitest";
import { parsePlan } from "./parse-plan.js";
import { PlanParseError } from "./plan-parse-error.js";

function status(section: string) {
  return parsePlan(`# Plan\n\n${section}\n\n## Tasks\n- [ ] TASK-1 a\n`).status;
}

function statusError(section: string): PlanParseError {
  try {
    parsePlan(`# Plan\n\n${section}\n`, { file: "plan.md" });
  } catch (error) {
    if (PlanParseError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected parsePlan to throw");
}

describe("RALPH_STATUS", () => {
  it("is null when the plan has no such section", () => {
    expect(parsePlan("# Plan\n- [ ] TASK-1 a\n").status).toBeNull();
  });

  it("is found under RALPH STATUS or ralph_status headings of any level", () => {
    expect(status("### ralph status\n- EXIT_SIGNAL: true")?.exitSignal).toBe(true);
    expect(status("# Ralph_Status:\n- EXIT_SIGNAL: yes")?.exitSignal).toBe(true);
  });

  it("matches keys case- and spacing-tolerantly, with emphasis and code markers", () => {
    expect(
      status(
        "## RALPH_STATUS\n- **Exit Signal**: No\n* `completion-indicators`: **3**\n+ **Current_Task:** `TASK-5`",
      ),
    ).toEqual({
      exitSignal: false,
      completionIndicators: 3,
      currentTask: "TASK-5",
      fields: { "Exit Signal": "No", "completion-indicators": "3", Current_Task: "TASK-5" },
      line: 3,
    });
  });

  it("reads none, -, an empty value and null as no current task", () => {
    for (const value of ["none", "None", "-", "", "null"]) {
      expect(status(`## RALPH_STATUS\n- current_task: ${value}`)?.currentTask).toBeNull();
    }
  });

  it("reads an empty EXIT_SIGNAL or completion_indicators as not set", () => {
    expect(status("## RALPH_STATUS\n- EXIT_SIGNAL:\n- completion_indicators:   ")).toMatchObject({
      exitSignal: null,
      completionIndicators: null,
    });
  });

  it("keeps unknown keys in fields and lets the last of a repeated key win", () => {
    const read = status(
      "## RALPH_STATUS\n- EXIT_SIGNAL: false\n- last_run: 2026-03-14T10:00:00\n- EXIT_SIGNAL: true",
    );
    expect(read?.exitSignal).toBe(true);
    expect(read?.fields).toEqual({ EXIT_SIGNAL: "true", last_run: "2026-03-14T10:00:00" });
  });

  it("reads bare key: value lines too", () => {
    expect(status("## RALPH_STATUS\nEXIT_SIGNAL: true\ncompletion_indicators: 2")).toMatchObject({
      exitSignal: true,
      completionIndicators: 2,
    });
  });

  it("has null values when the section is empty", () => {
    expect(status("## RALPH_STATUS")).toEqual({
      exitSignal: null,
      completionIndicators: null,
      currentTask: null,
      fields: {},
      line: 3,
    });
  });

  it("ignores items in a code block inside the section", () => {
    expect(status("## RALPH_STATUS\n```\n- EXIT_SIGNAL: true\n```")?.exitSignal).toBeNull();
  });

  it("reads only the first RALPH_STATUS section", () => {
    const plan = parsePlan(
      "## RALPH_STATUS\n- EXIT_SIGNAL: false\n## RALPH_STATUS\n- EXIT_SIGNAL: true\n",
    );
    expect(plan.status?.exitSignal).toBe(false);
  });

  it("rejects a malformed EXIT_SIGNAL, pointing at the value and saying what is valid", () => {
    const error = statusError("## RALPH_STATUS\n- EXIT_SIGNAL: maybe");
    expect(error.issues).toEqual([
      {
        message: 'EXIT_SIGNAL: expected true or false (yes and no are accepted too), got "maybe"',
        line: 4,
        column: 16,
      },
    ]);
    expect(error.message).toBe(
      'Invalid plan (1 problem):\n  plan.md:4:16 EXIT_SIGNAL: expected true or false (yes and no are accepted too), got "maybe"',
    );
  });

  it("rejects a negative, fractional or non-numeric completion_indicators, all at once", () => {
    const error = statusError(
      "## RALPH_STATUS\n- completion_indicators: -1\n- completion indicators: 2.5\n- Completion_Indicators: **lots**",
    );
    expect(error.issues.map((issue) => [issue.line, issue.column, issue.message])).toEqual([
      [4, 26, 'completion_indicators: expected a whole number, 0 or more, got "-1"'],
      [5, 26, 'completion indicators: expected a whole number, 0 or more, got "2.5"'],
      [6, 28, 'Completion_Indicators: expected a whole number, 0 or more, got "lots"'],
    ]);
  });

  it("reads an entry written as a task item, after its checkbox", () => {
    expect(
      status("## RALPH_STATUS\n- [ ] **EXIT_SIGNAL**: true\n- [x] completion_indicators: 1"),
    ).toMatchObject({
      exitSignal: true,
      completionIndicators: 1,
    });
  });

  it("keeps status items out of the tasks", () => {
    const plan = parsePlan(
      "## RALPH_STATUS\n- [ ] EXIT_SIGNAL: false\n\n## Work\n- [ ] TASK-1 a\n",
    );
    expect(plan.tasks.map((task) => task.id)).toEqual(["TASK-1"]);
  });
});
