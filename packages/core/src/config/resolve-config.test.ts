import { describe, expect, it } from "vitest";
import { ConfigError } from "./config-error.js";
import { DEFAULT_CONFIG } from "./default-config.js";
import type { LoopConfigInput } from "./loop-config.js";
import { resolveConfig } from "./resolve-config.js";

/** The ConfigError `run` throws; fails the test when it throws nothing or something else. */
function configErrorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ConfigError, nothing was thrown");
}

describe("resolveConfig", () => {
  it.each([
    ["no argument", undefined],
    ["null", null],
    ["an empty object", {}],
  ])("gives the defaults for %s", (_label, input) => {
    expect(resolveConfig(input)).toEqual(DEFAULT_CONFIG);
  });

  it("fills the defaults around a partial section", () => {
    const config = resolveConfig({ limits: { max_iterations: 50, max_cost_usd: 2.5 } });
    expect(config.limits).toEqual({
      max_iterations: 50,
      max_calls_per_hour: 100,
      max_cost_usd: 2.5,
      max_duration_minutes: null,
      iteration_timeout_minutes: 15,
    });
    expect(config.exit_policy).toEqual(DEFAULT_CONFIG.exit_policy);
  });

  it("returns a mutable copy and leaves its input alone", () => {
    const input = { plans: { optional_headings: ["Later"] } };
    const config = resolveConfig(input);
    config.plans.optional_headings.push("Someday");
    expect(input.plans.optional_headings).toEqual(["Later"]);
    expect(Object.isFrozen(config)).toBe(false);
  });

  it("accepts the frozen DEFAULT_CONFIG as input", () => {
    expect(resolveConfig(DEFAULT_CONFIG)).toEqual(DEFAULT_CONFIG);
  });

  it.each([
    ["usage_limit.on_limit", { usage_limit: { on_limit: "exit" } }, "exit"],
    ["enforcement.enabled", { enforcement: { enabled: false } }, false],
    ["verification.fuzzy_match_threshold", { verification: { fuzzy_match_threshold: 1 } }, 1],
    ["stop_when.done_signals", { stop_when: { done_signals: 0 } }, 0],
    ["circuit_breaker.cooldown_minutes", { circuit_breaker: { cooldown_minutes: 0 } }, 0],
    ["plans.optional_headings", { plans: { optional_headings: [] } }, []],
  ] satisfies [string, LoopConfigInput, unknown][])(
    "accepts the boundary value of %s",
    (path, input, expected) => {
      const [section, key] = path.split(".") as [string, string];
      const config = resolveConfig(input) as unknown as Record<string, Record<string, unknown>>;
      expect(config[section]?.[key]).toEqual(expected);
    },
  );

  it("reports every problem with its key path and no position", () => {
    const error = configErrorOf(() =>
      resolveConfig({
        limits: { max_iterations: 0 },
        verificaton: {},
        exit_policy: { require_exit_signal: "yes" },
      } as unknown as LoopConfigInput),
    );
    expect(error.code).toBe("CONFIG_ERROR");
    expect(error.issues).toEqual([
      {
        path: ["exit_policy", "require_exit_signal"],
        message: 'expected true or false, got "yes"',
      },
      { path: ["limits", "max_iterations"], message: "expected an integer ≥ 1, got 0" },
      {
        path: ["verificaton"],
        message: 'unknown key "verificaton" — did you mean "verification"?',
      },
    ]);
    expect(error.message).toContain("limits.max_iterations: expected an integer ≥ 1, got 0");
  });

  it.each([
    ["a string", "limits: 5"],
    ["a number", 5],
    ["a list", []],
  ])("rejects %s as the whole config", (_label, input) => {
    const error = configErrorOf(() => resolveConfig(input as unknown as LoopConfigInput));
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.message).toMatch(
      /^expected the config to be a mapping of settings \(key: value\), got /,
    );
  });
});
