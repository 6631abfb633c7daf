import { describe, expect, it } from "vitest";
import { retryRefusal } from "./retry-refusal.js";

const work = { taskId: "TASK-3", branch: "loop/kept/TASK-3-bb/1", keptAt: 2, commits: 2 };

describe("retryRefusal", () => {
  it("allows an open task of the plan", () => {
    expect(retryRefusal(work, [{ id: "TASK-3", title: "Three", done: false }], "plan.md")).toBe(
      null,
    );
  });

  it("refuses a task that is done, or not in the plan, saying what to do", () => {
    expect(retryRefusal(work, [{ id: "TASK-3", title: "Three", done: true }], "plan.md")).toBe(
      "loop/kept/TASK-3-bb/1 holds the work of TASK-3, which is done in plan.md (its box is checked): there is nothing to retry. Uncheck its box to run it again, or `loop branches discard loop/kept/TASK-3-bb/1`.",
    );
    expect(retryRefusal(work, [{ id: "TASK-1", title: "One", done: false }], "plan.md")).toContain(
      "TASK-3, which is not a task of plan.md: nothing would run it.",
    );
  });
});
