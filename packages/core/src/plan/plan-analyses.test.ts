import { describe, expect, it } from "vitest";
import { PlanAnalyses } from "./plan-analyses.js";
import { PlanParseError } from "./plan-parse-error.js";
import { editAnalyzedPlan, updatePlan } from "./update-plan.js";

const plan = (n: number) => `# Plan\n\n- [ ] TASK-1 First ${n}\n- [ ] TASK-2 Second\n`;

describe("PlanAnalyses (the engine's memo of parsed plans)", () => {
  it("parses a text once: the same analysis comes back while it is kept", () => {
    const analyses = new PlanAnalyses();
    const first = analyses.analyze(plan(1));
    expect(analyses.analyze(plan(1))).toBe(first);
    expect(first.plan.tasks.map((task) => task.id)).toEqual(["TASK-1", "TASK-2"]);
    expect(Object.isFrozen(first.plan.tasks[0])).toBe(true);
  });

  it("keeps the two most recent texts (the agent's and the engine's) and parses an older one again", () => {
    const analyses = new PlanAnalyses();
    const oldest = analyses.analyze(plan(0));
    const agents = analyses.analyze(plan(1));
    const engines = analyses.analyze(plan(2));
    expect(analyses.analyze(plan(1))).toBe(agents);
    expect(analyses.analyze(plan(2))).toBe(engines);
    expect(analyses.analyze(plan(0))).not.toBe(oldest);
  });

  it("keys by the optional headings as well as the text", () => {
    const analyses = new PlanAnalyses();
    const text = "# Plan\n\n## Later\n\n- [ ] TASK-1 Maybe\n";
    const byDefault = analyses.analyze(text);
    const custom = analyses.analyze(text, { optionalHeadings: ["Later"] });
    expect(byDefault.plan.tasks[0]?.optional).toBe(false);
    expect(custom.plan.tasks[0]?.optional).toBe(true);
  });

  it("keeps no error: a plan that fails fails again, with its file name", () => {
    const analyses = new PlanAnalyses();
    const broken = "- [ ] TASK-1 One\n- [ ] TASK-1 Again\n";
    expect(() => analyses.analyze(broken, { file: "a.md" })).toThrow(PlanParseError);
    expect(() => analyses.analyze(broken, { file: "b.md" })).toThrow(/b\.md/);
  });

  it("an edit of a kept analysis is the edit updatePlan makes", () => {
    const analyses = new PlanAnalyses();
    const text = plan(1);
    const edit = { check: ["TASK-2"] };
    expect(editAnalyzedPlan(analyses.analyze(text), text, edit)).toBe(updatePlan(text, edit));
  });
});
