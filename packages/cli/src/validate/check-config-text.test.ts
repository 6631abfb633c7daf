import { describe, expect, it } from "vitest";
import { checkConfigText } from "./check-config-text.js";

describe("checkConfigText", () => {
  it("gives every problem with its position and key path", () => {
    const text =
      "max_iterations: 50\nexit_policy:\n  min_completion_indicatorz: 3\nverification:\n  lookback_turns: two\n";
    const check = checkConfigText(text, "config.yaml");
    expect(check.config).toBeNull();
    expect(check.problems.map(({ line, column, keyPath }) => [line, column, keyPath])).toEqual([
      [1, 1, "max_iterations"],
      [3, 3, "exit_policy.min_completion_indicatorz"],
      [5, 19, "verification.lookback_turns"],
    ]);
    expect(check.problems[1]?.message).toContain('did you mean "min_completion_indicators"?');
    expect(check.problems.every((problem) => problem.file === "config.yaml")).toBe(true);
  });

  it("gives warnings, located where the file writes the key", () => {
    const check = checkConfigText("circuit_breaker:\n  no_progress_loops: 2\n", "c.yaml");
    expect(check.problems).toEqual([]);
    expect(check.config?.circuit_breaker.no_progress_loops).toBe(2);
    expect(check.warnings).toEqual([
      expect.objectContaining({
        file: "c.yaml",
        line: 2,
        column: 3,
        keyPath: "circuit_breaker.no_progress_loops",
        code: "BREAKER_OPENS_BEFORE_TASK_SKIP",
      }),
    ]);
  });

  it("gives a warning without a position when the key is not written", () => {
    const check = checkConfigText("tasks:\n  max_attempts: 9\n", "c.yaml");
    expect(check.warnings).toMatchObject([{ line: null, column: null }]);
  });

  it("finds nothing in an empty config", () => {
    expect(checkConfigText("", "c.yaml")).toMatchObject({ problems: [], warnings: [] });
  });
});
