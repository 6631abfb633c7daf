import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkConfig } from "./config-warnings.js";
import { DEFAULT_CONFIG } from "./default-config.js";
import { configJsonSchema } from "./json-schema.js";
import { parseConfig } from "./parse-config.js";

// The config snippets of the loop-code seed (000_045133b4da998efc), verbatim, comments and
// alignment included.

const seedConfig = `version: 1
enforcement:
  enabled: true                         # Full policy (default)
                                        # false = Minimal policy (EXIT_SIGNAL + indicators only)
exit_policy:
  min_completion_indicators: 2          # Minimum iterations (default: 2)
  require_exit_signal: true             # Require EXIT_SIGNAL in RALPH_STATUS
  require_all_tasks_complete: true      # Require all tasks marked complete
  require_verification_pass: false      # Require verification to pass
verification:
  enabled: true                         # Practical verification (default)
                                        # false = Disabled
  lookback_turns: 10                    # Chat lookback window for concerns
  fuzzy_match_threshold: 0.8           # Requirement matching threshold (0.0-1.0)
plans:
  default_plan: plan.md
  allow_per_terminal_plan: false
logging:
  decision_log: .claude/loop/logs/decision.log
  verifier_log: .claude/loop/logs/verifier.log
`;

const seedVerificationSnippet = `verification:
  enabled: true                        # Practical verification (default)
  lookback_turns: 10                   # Chat lookback window
  fuzzy_match_threshold: 0.8          # Requirement matching threshold
`;

const seedMinimalPolicy = `enforcement:
  enabled: false
`;

const quickstartConfig = readFileSync(
  new URL("../../../../examples/quickstart/.claude/loop/config.yaml", import.meta.url),
  "utf8",
);

describe("the seed's config snippets", () => {
  it("parses the full config.yaml example to the values it shows", () => {
    const config = parseConfig(seedConfig, { file: ".claude/loop/config.yaml" });
    expect(config.version).toBe(1);
    expect(config.enforcement).toEqual({ enabled: true });
    expect(config.exit_policy).toEqual({
      min_completion_indicators: 2,
      require_exit_signal: true,
      require_all_tasks_complete: true,
      require_verification_pass: false,
    });
    expect(config.verification).toEqual({
      enabled: true,
      lookback_turns: 10,
      fuzzy_match_threshold: 0.8,
    });
    expect(config.plans.default_plan).toBe("plan.md");
    expect(config.plans.allow_per_terminal_plan).toBe(false);
    expect(config.logging).toEqual({
      decision_log: ".claude/loop/logs/decision.log",
      verifier_log: ".claude/loop/logs/verifier.log",
      // Not in the seed: the per-iteration logs, at their defaults.
      iteration_logs: ".claude/loop/logs/iterations",
      iteration_logs_keep: 50,
    });
  });

  it("shows the defaults: the full example equals the default config", () => {
    expect(parseConfig(seedConfig)).toEqual(DEFAULT_CONFIG);
  });

  it("parses the verification snippet", () => {
    expect(parseConfig(seedVerificationSnippet).verification).toEqual({
      enabled: true,
      lookback_turns: 10,
      fuzzy_match_threshold: 0.8,
    });
  });

  it("parses the minimal policy (enforcement disabled), keeping the other defaults", () => {
    const config = parseConfig(seedMinimalPolicy);
    expect(config.enforcement.enabled).toBe(false);
    expect(config.exit_policy).toEqual(DEFAULT_CONFIG.exit_policy);
    expect(checkConfig(config).map((warning) => warning.code)).toEqual(["IGNORED_IN_MINIMAL_MODE"]);
  });

  it("parses the quickstart example's config", () => {
    expect(parseConfig(quickstartConfig).limits.max_iterations).toBe(20);
  });
});

/** A JSON Schema node, as far as this test reads it. */
interface SchemaNode {
  readonly type?: string;
  readonly properties?: Record<string, SchemaNode>;
  readonly additionalProperties?: boolean;
  readonly items?: SchemaNode;
  readonly anyOf?: readonly SchemaNode[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly pattern?: string;
}

/** Whether `value` has the JSON Schema `type`. */
function hasType(value: unknown, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "null") return value === null;
  if (type === "array") return Array.isArray(value);
  if (type === "object")
    return typeof value === "object" && value !== null && !Array.isArray(value);
  return typeof value === type;
}

/**
 * The paths at which `value` breaks `schema`: a small validator for the keywords the config
 * schema uses (no validator library is a dependency of @loop/core).
 */
function violations(schema: SchemaNode, value: unknown, path = "$"): string[] {
  if (schema.anyOf) {
    const passes = schema.anyOf.some((option) => violations(option, value, path).length === 0);
    return passes ? [] : [`${path}: no anyOf option matches`];
  }
  if (schema.type !== undefined && !hasType(value, schema.type))
    return [`${path}: not ${schema.type}`];
  if (schema.const !== undefined && value !== schema.const) return [`${path}: not ${schema.const}`];
  if (schema.enum && !schema.enum.includes(value)) return [`${path}: not in enum`];
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return [`${path}: below minimum`];
    if (schema.maximum !== undefined && value > schema.maximum) return [`${path}: above maximum`];
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
      return [`${path}: not above exclusiveMinimum`];
    }
  }
  if (typeof value === "string" && schema.pattern !== undefined) {
    if (!new RegExp(schema.pattern, "u").test(value)) return [`${path}: does not match pattern`];
  }
  if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    return value.flatMap((item, index) => violations(items, item, `${path}[${index}]`));
  }
  if (hasType(value, "object") && schema.properties) {
    const properties = schema.properties;
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
      const childSchema = properties[key];
      if (childSchema !== undefined) return violations(childSchema, child, `${path}.${key}`);
      return schema.additionalProperties === false ? [`${path}.${key}: not allowed`] : [];
    });
  }
  return [];
}

describe("the JSON Schema on the seed's config", () => {
  const schema = configJsonSchema() as SchemaNode;

  it.each([
    ["the full config.yaml example", seedConfig],
    ["the verification snippet", seedVerificationSnippet],
    ["the minimal policy", seedMinimalPolicy],
    ["the quickstart example", quickstartConfig],
  ])("accepts %s", (_label, yaml) => {
    expect(violations(schema, parse(yaml))).toEqual([]);
  });

  it("accepts the default config and an empty config", () => {
    expect(violations(schema, structuredClone(DEFAULT_CONFIG))).toEqual([]);
    expect(violations(schema, {})).toEqual([]);
  });

  it.each([
    ["an unknown top-level key", "max_iterations: 5\n", "$.max_iterations: not allowed"],
    [
      "a misspelt setting",
      "exit_policy:\n  min_completion_indicatorz: 2\n",
      "$.exit_policy.min_completion_indicatorz: not allowed",
    ],
    [
      "a string for an integer",
      "tasks:\n  max_attempts: two\n",
      "$.tasks.max_attempts: not integer",
    ],
    [
      "a threshold above 1",
      "verification:\n  fuzzy_match_threshold: 1.2\n",
      "$.verification.fuzzy_match_threshold: above maximum",
    ],
    [
      "an unknown choice",
      "usage_limit:\n  on_limit: sleep\n",
      "$.usage_limit.on_limit: not in enum",
    ],
    ["version 2", "version: 2\n", "$.version: not 1"],
    [
      "a zero cost cap",
      "limits:\n  max_cost_usd: 0\n",
      "$.limits.max_cost_usd: no anyOf option matches",
    ],
  ])("rejects %s, as parseConfig does", (_label, yaml, violation) => {
    expect(violations(schema, parse(yaml))).toEqual([violation]);
    expect(() => parseConfig(yaml)).toThrow();
  });
});
