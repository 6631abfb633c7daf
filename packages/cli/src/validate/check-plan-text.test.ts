import { describe, expect, it } from "vitest";
import { checkPlanText, isPrdPath } from "./check-plan-text.js";

describe("checkPlanText", () => {
  it("summarises a valid markdown plan", () => {
    const check = checkPlanText("- [x] TASK-1 A\n- [ ] TASK-2 B\n", "plan.md");
    expect(check).toEqual({ problems: [], warnings: [], summary: "2 tasks, 1 done" });
  });

  it("gives every problem of a markdown plan with its position", () => {
    const text =
      "## RALPH_STATUS\n- EXIT_SIGNAL: maybe\n\n## Tasks\n- [ ] TASK-1 A\n- [ ] TASK-1 B\n";
    const check = checkPlanText(text, "plan.md");
    expect(check.summary).toBeNull();
    expect(check.problems.map(({ line, column }) => [line, column])).toEqual([
      [2, 16],
      [6, 1],
    ]);
    expect(check.problems[1]?.message).toContain('Duplicate task id "TASK-1"');
  });

  it("warns about a plan without tasks", () => {
    const check = checkPlanText("# Notes\n\nNothing here.\n", "plan.md");
    expect(check.problems).toEqual([]);
    expect(check.warnings).toMatchObject([{ file: "plan.md", line: null }]);
    expect(check.warnings[0]?.message).toContain("no tasks");
  });

  it("reads the optional headings it is given", () => {
    const text = "## Later\n- [ ] TASK-1 A\n";
    expect(checkPlanText(text, "plan.md", { optionalHeadings: ["Later"] }).summary).toBe(
      "1 task, 0 done",
    );
  });

  it("checks a .json plan as a prd.json", () => {
    const valid = '{"stories":[{"id":"S1","title":"A","passes":true},{"id":"S2","title":"B"}]}';
    expect(checkPlanText(valid, "prd.json").summary).toBe("2 stories, 1 done");
    const invalid = '{"stories":[{"id":"S1","title":"A","dependencies":["S9"]}]}';
    const check = checkPlanText(invalid, "prd.json");
    expect(check.problems).toMatchObject([
      { file: "prd.json", line: 1, keyPath: "stories[0].dependencies[0]" },
    ]);
  });

  it("tells prd.json names from markdown ones", () => {
    expect(isPrdPath("a/PRD.JSON")).toBe(true);
    expect(isPrdPath("plan.md")).toBe(false);
  });
});
