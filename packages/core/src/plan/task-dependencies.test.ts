import { describe, expect, it } from "vitest";
import { parsePlan } from "./parse-plan.js";
import { isParallelHeading, taskDependencies } from "./task-dependencies.js";

describe("taskDependencies", () => {
  it("chains a plan's tasks in order, nested ones within their unit", () => {
    const { tasks } = parsePlan("- [ ] T-1 a\n  - [ ] T-2 b\n- [ ] T-3 c\n");
    expect(Object.fromEntries(taskDependencies(tasks))).toEqual({
      "T-1": [],
      "T-2": ["T-1"],
      "T-3": ["T-2"],
    });
  });

  it("lets the units under a (parallel) heading wait only for what comes before it", () => {
    const { tasks } = parsePlan(
      "- [ ] T-1 setup\n\n## Parts (Parallel)\n\n- [ ] P-1 one\n  - [ ] P-2 its test\n- [ ] P-3 two\n\n## Later\n\n- [ ] T-2 after\n",
    );
    expect(Object.fromEntries(taskDependencies(tasks))).toEqual({
      "T-1": [],
      "P-1": ["T-1"],
      "P-2": ["P-1"],
      "P-3": ["T-1"],
      "T-2": ["P-2", "P-3"],
    });
  });

  it("reads (parallel) only at the end of a heading", () => {
    expect(isParallelHeading("Endpoints (parallel)")).toBe(true);
    expect(isParallelHeading("Endpoints ( PARALLEL )")).toBe(true);
    expect(isParallelHeading("Parallel endpoints")).toBe(false);
    expect(isParallelHeading("(parallel) endpoints")).toBe(false);
  });
});
