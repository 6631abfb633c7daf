import { describe, expect, it } from "vitest";
import { suggestKeys, unknownKeyMessage } from "./suggest-key.js";

describe("suggestKeys", () => {
  it.each<[string, string[], string[]]>([
    ["min_completion_indicatorz", ["exit_policy"], ["min_completion_indicators"]],
    ["require_exit_signl", ["exit_policy"], ["require_exit_signal"]],
    ["fuzzy_threshold", ["verification"], ["fuzzy_match_threshold"]],
    ["Enabled", ["enforcement"], ["enabled"]],
    ["on-limit", ["usage_limit"], ["on_limit"]],
    ["noProgressLoops", ["circuit_breaker"], ["no_progress_loops"]],
    ["verfication", [], ["verification"]],
    ["circuit-breaker", [], ["circuit_breaker"]],
    ["max_iterations", [], ["limits.max_iterations"]],
    ["max_iteration", [], ["limits.max_iterations"]],
    ["lookback_turns", ["exit_policy"], ["verification.lookback_turns"]],
    ["verification", ["exit_policy"], ["verification"]],
    ["enabled", [], ["enforcement.enabled", "verification.enabled"]],
    ["enabled", ["exit_policy"], ["enforcement.enabled", "verification.enabled"]],
  ])("suggests for %s under %j", (key, parent, expected) => {
    expect(suggestKeys(key, parent)).toEqual(expected);
  });

  it.each<[string, string[]]>([
    ["agent", []],
    ["x", []],
    ["fuse", ["circuit_breaker"]],
    ["model_name", ["limits"]],
    ["completely_unrelated_setting", ["exit_policy"]],
  ])("suggests nothing for %s under %j", (key, parent) => {
    expect(suggestKeys(key, parent)).toEqual([]);
  });

  it("prefers a near key in the same section to a near key elsewhere", () => {
    // "max_attempt" is 1 edit from tasks.max_attempts; under tasks it is a same-level typo.
    expect(suggestKeys("max_attempt", ["tasks"])).toEqual(["max_attempts"]);
    expect(suggestKeys("max_attempt", ["limits"])).toEqual(["tasks.max_attempts"]);
  });
});

describe("unknownKeyMessage", () => {
  it("suggests one key", () => {
    expect(unknownKeyMessage("exit_polcy", [])).toBe(
      'unknown key "exit_polcy" — did you mean "exit_policy"?',
    );
  });

  it("suggests several keys", () => {
    expect(unknownKeyMessage("enabled", [])).toBe(
      'unknown key "enabled" — did you mean "enforcement.enabled" or "verification.enabled"?',
    );
  });

  it("lists the valid keys of a section when nothing is close", () => {
    expect(unknownKeyMessage("model", ["usage_limit"])).toBe(
      'unknown key "model" — valid keys under usage_limit: on_limit',
    );
  });
});
