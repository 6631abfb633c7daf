import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONAL_HEADINGS } from "../plan/section-names.js";
import { configSettingPaths } from "./config-keys.js";
import { LoopConfigSchema } from "./config-schema.js";
import { DEFAULT_CONFIG } from "./default-config.js";
import { resolveConfig } from "./resolve-config.js";

/** Every setting and its default, as the seed (config.yaml example) and the brief give them. */
const expectedDefaults: [string, unknown][] = [
  ["version", 1],
  ["enforcement.enabled", true],
  ["exit_policy.min_completion_indicators", 2],
  ["exit_policy.require_exit_signal", true],
  ["exit_policy.require_all_tasks_complete", true],
  ["exit_policy.require_verification_pass", false],
  ["verification.enabled", true],
  ["verification.lookback_turns", 10],
  ["verification.fuzzy_match_threshold", 0.8],
  ["plans.default_plan", "plan.md"],
  ["plans.allow_per_terminal_plan", false],
  ["plans.optional_headings", ["Optional", "Future", "Future Enhancements", "Nice to Have"]],
  ["logging.decision_log", ".claude/loop/logs/decision.log"],
  ["logging.verifier_log", ".claude/loop/logs/verifier.log"],
  ["logging.iteration_logs", ".claude/loop/logs/iterations"],
  ["logging.iteration_logs_keep", 50],
  ["state.store", "files"],
  ["fleet.max_calls_per_hour", null],
  ["fleet.max_cost_usd", null],
  ["fleet.name", "default"],
  ["limits.max_iterations", 20],
  ["limits.max_calls_per_hour", 100],
  ["limits.max_cost_usd", null],
  ["limits.max_duration_minutes", null],
  ["limits.iteration_timeout_minutes", 15],
  ["tasks.max_attempts", 3],
  ["stop_when.test_only_loops", 3],
  ["stop_when.done_signals", 2],
  ["stop_when.question_loops", 3],
  ["circuit_breaker.no_progress_loops", 5],
  ["circuit_breaker.same_error_loops", 5],
  ["circuit_breaker.permission_denial_loops", 3],
  ["circuit_breaker.cooldown_minutes", 30],
  ["usage_limit.on_limit", "wait"],
];

/** The value at a dotted path of a plain object. */
function valueAt(root: unknown, dottedPath: string): unknown {
  return dottedPath
    .split(".")
    .reduce<unknown>(
      (value, key) =>
        typeof value === "object" && value !== null
          ? (value as Record<string, unknown>)[key]
          : undefined,
      root,
    );
}

describe("DEFAULT_CONFIG", () => {
  it.each(expectedDefaults)("%s defaults to %j", (path, expected) => {
    expect(valueAt(DEFAULT_CONFIG, path)).toEqual(expected);
  });

  it("has a tested default for every setting of the schema, and no other", () => {
    const settings = configSettingPaths().map((path) => path.join("."));
    expect([...settings].sort()).toEqual(expectedDefaults.map(([path]) => path).sort());
  });

  it("equals the schema's parse of {}", () => {
    expect(DEFAULT_CONFIG).toEqual(LoopConfigSchema.parse({}));
  });

  it("is deeply frozen", () => {
    expect(Object.isFrozen(DEFAULT_CONFIG)).toBe(true);
    expect(Object.isFrozen(DEFAULT_CONFIG.exit_policy)).toBe(true);
    expect(Object.isFrozen(DEFAULT_CONFIG.plans.optional_headings)).toBe(true);
    expect(() => {
      (DEFAULT_CONFIG.limits as { max_iterations: number }).max_iterations = 1;
    }).toThrow(TypeError);
  });

  it("takes optional_headings from the plan parser's list, without sharing it", () => {
    expect(DEFAULT_CONFIG.plans.optional_headings).toEqual(DEFAULT_OPTIONAL_HEADINGS);
    const config = resolveConfig();
    expect(config.plans.optional_headings).not.toBe(DEFAULT_OPTIONAL_HEADINGS);
    config.plans.optional_headings.push("Stretch Goals");
    expect(DEFAULT_OPTIONAL_HEADINGS).toHaveLength(4);
    expect(resolveConfig().plans.optional_headings).toHaveLength(4);
  });
});
