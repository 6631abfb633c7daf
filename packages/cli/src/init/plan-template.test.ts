import { DEFAULT_PROMPT_TEMPLATE, parsePlan } from "@loop/core";
import { describe, expect, it } from "vitest";
import { planTemplate } from "./plan-template.js";

describe("planTemplate", () => {
  const plan = parsePlan(planTemplate(), { file: "plan.md" });

  it("has open TASK-001… tasks, one of them optional", () => {
    expect(plan.tasks.map((task) => [task.id, task.done, task.optional])).toEqual([
      ["TASK-001", false, false],
      ["TASK-002", false, false],
      ["TASK-003", false, false],
      ["TASK-004", false, false],
      ["TASK-005", false, true],
    ]);
  });

  it("has a RALPH_STATUS section the loop can read", () => {
    expect(plan.status).toMatchObject({
      exitSignal: false,
      completionIndicators: 0,
      currentTask: "TASK-001",
    });
  });

  it("has acceptance criteria, which are requirements, not tasks", () => {
    expect(plan.requirements.map((requirement) => requirement.section)).toEqual([
      "Acceptance Criteria",
      "Acceptance Criteria",
      "Acceptance Criteria",
    ]);
  });

  it("has the Notes section the default prompt tells the agent to write in", () => {
    expect(DEFAULT_PROMPT_TEMPLATE).toContain("the plan's Notes section");
    expect(planTemplate()).toMatch(/^## Notes$/m);
    expect(plan.tasks).toHaveLength(5);
  });
});
