import { describe, expect, it } from "vitest";
import { formatSummary } from "./format-summary.js";
import type { ValidationReport } from "./validate-project.js";

const base: ValidationReport = {
  valid: true,
  problems: [],
  warnings: [],
  plan: { file: "plan.md", exists: true, summary: "4 tasks, 1 done" },
  config: { file: ".claude/loop/config.yaml", exists: true, summary: null },
};

describe("formatSummary", () => {
  it("names the files of a valid project, and a missing config", () => {
    expect(formatSummary(base)).toBe("valid: plan.md (4 tasks, 1 done), .claude/loop/config.yaml");
    const noConfig = { ...base, config: { ...base.config, exists: false } };
    expect(formatSummary(noConfig)).toContain("no .claude/loop/config.yaml (the defaults apply)");
  });

  it("counts problems, the files they are in, and warnings", () => {
    const problem = { file: "plan.md", line: 1, column: 1, message: "x" };
    const report = { ...base, valid: false, problems: [problem, problem], warnings: [problem] };
    expect(formatSummary(report)).toBe("not valid: 2 problems in plan.md; 1 warning");
  });
});
