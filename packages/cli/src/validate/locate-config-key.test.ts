import { describe, expect, it } from "vitest";
import { locateConfigKey } from "./locate-config-key.js";

const TEXT = [
  "# a comment naming tasks:",
  "limits:",
  "  #max_iterations: 20",
  "  max_iterations: 5",
  "tasks:",
  "  max_attempts: 9",
  "circuit_breaker:",
  "  cooldown_minutes: 3",
  "plans:",
  "  default_plan: plan.md",
].join("\n");

describe("locateConfigKey", () => {
  it("finds a setting under its section, skipping comments and commented keys", () => {
    expect(locateConfigKey(TEXT, ["limits", "max_iterations"])).toEqual({ line: 4, column: 3 });
    expect(locateConfigKey(TEXT, ["tasks", "max_attempts"])).toEqual({ line: 6, column: 3 });
    expect(locateConfigKey(TEXT, ["tasks"])).toEqual({ line: 5, column: 1 });
  });

  it("gives null for a key the file does not write, even when a later section has it", () => {
    expect(locateConfigKey(TEXT, ["circuit_breaker", "no_progress_loops"])).toBeNull();
    expect(locateConfigKey(TEXT, ["limits", "default_plan"])).toBeNull();
    expect(locateConfigKey(TEXT, ["exit_policy"])).toBeNull();
  });

  it("does not take a nested key for a top-level one", () => {
    expect(locateConfigKey("plans:\n  tasks: 1\n", ["tasks"])).toBeNull();
  });
});
