import { describe, expect, it } from "vitest";
import { formatProblem } from "./format-problem.js";

describe("formatProblem", () => {
  it("writes file:line:column: key.path: message", () => {
    const problem = { file: "c.yaml", line: 3, column: 5, message: "bad", keyPath: "a.b" };
    expect(formatProblem(problem)).toBe("c.yaml:3:5: a.b: bad");
    expect(formatProblem(problem, "warning")).toBe("c.yaml:3:5: warning: a.b: bad");
  });

  it("leaves out what is unknown, and a key path the message starts with", () => {
    expect(formatProblem({ file: "plan.md", line: null, column: null, message: "not found" })).toBe(
      "plan.md: not found",
    );
    expect(formatProblem({ file: "p.md", line: 2, column: null, message: "x" })).toBe("p.md:2: x");
    const named = {
      file: "c.yaml",
      line: null,
      column: null,
      message: "a.b (1) is low",
      keyPath: "a.b",
    };
    expect(formatProblem(named, "warning")).toBe("c.yaml: warning: a.b (1) is low");
  });
});
