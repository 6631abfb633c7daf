import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../errors/diagnostic.js";
import { ConfigError } from "./config-error.js";
import { DEFAULT_CONFIG } from "./default-config.js";
import { parseConfig } from "./parse-config.js";

/** The ConfigError parsing `yaml` throws; fails the test when it throws nothing or something else. */
function configErrorOf(yaml: string, file: string | undefined = "config.yaml"): ConfigError {
  try {
    parseConfig(yaml, { file });
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ConfigError, nothing was thrown");
}

/** The single problem parsing `yaml` reports. */
function onlyIssue(yaml: string): Diagnostic {
  const { issues } = configErrorOf(yaml);
  expect(issues).toHaveLength(1);
  const [issue] = issues;
  if (issue === undefined) throw new Error("no issue");
  return issue;
}

describe("parseConfig: empty input", () => {
  it.each([
    ["an empty string", ""],
    ["whitespace", "  \n\n\t\n"],
    ["comments only", "# loop config\n# nothing set yet\n"],
    ["a document marker and a comment", "---\n# nothing here\n"],
    ["a byte-order mark", "\uFEFF# comment\n"],
  ])("gives the defaults for %s", (_label, yaml) => {
    expect(parseConfig(yaml)).toEqual(DEFAULT_CONFIG);
  });

  it("returns a fresh, mutable config", () => {
    const config = parseConfig("");
    expect(Object.isFrozen(config)).toBe(false);
    expect(config).not.toBe(DEFAULT_CONFIG);
  });
});

describe("parseConfig: valid input", () => {
  it("overrides only the keys given", () => {
    const config = parseConfig(
      "limits:\n  max_iterations: 50\n  max_cost_usd: 12.5\nusage_limit:\n  on_limit: exit\n",
    );
    expect(config.limits.max_iterations).toBe(50);
    expect(config.limits.max_cost_usd).toBe(12.5);
    expect(config.limits.max_calls_per_hour).toBe(100);
    expect(config.usage_limit.on_limit).toBe("exit");
    expect(config.exit_policy).toEqual(DEFAULT_CONFIG.exit_policy);
  });

  it("reads CRLF line endings, flow style and quoted keys", () => {
    const config = parseConfig(
      'exit_policy: { min_completion_indicators: 4 }\r\n"tasks":\r\n  max_attempts: 5\r\n',
    );
    expect(config.exit_policy.min_completion_indicators).toBe(4);
    expect(config.tasks.max_attempts).toBe(5);
  });

  it("reads anchors and aliases", () => {
    const config = parseConfig(
      "stop_when:\n  test_only_loops: &three 3\ntasks:\n  max_attempts: *three\n",
    );
    expect(config.tasks.max_attempts).toBe(3);
  });

  it("takes an explicit null as no cap", () => {
    expect(parseConfig("limits:\n  max_duration_minutes: null\n").limits.max_duration_minutes).toBe(
      null,
    );
    expect(parseConfig("limits:\n  max_cost_usd: ~\n").limits.max_cost_usd).toBe(null);
  });

  it("reads a list of optional headings", () => {
    const config = parseConfig("plans:\n  optional_headings:\n    - Later\n    - Stretch\n");
    expect(config.plans.optional_headings).toEqual(["Later", "Stretch"]);
  });
});

describe("parseConfig: unknown keys", () => {
  it.each([
    {
      label: "a misspelt section",
      yaml: "version: 1\nexit_polcy:\n  require_exit_signal: true\n",
      path: ["exit_polcy"],
      line: 2,
      column: 1,
      message: 'unknown key "exit_polcy" — did you mean "exit_policy"?',
    },
    {
      label: "a misspelt setting",
      yaml: "exit_policy:\n  require_exit_signal: true\n  min_completion_indicatorz: 3\n",
      path: ["exit_policy", "min_completion_indicatorz"],
      line: 3,
      column: 3,
      message:
        'unknown key "min_completion_indicatorz" — did you mean "min_completion_indicators"?',
    },
    {
      label: "a setting misspelt with a missing letter",
      yaml: "verification:\n    lookback_turn: 5\n",
      path: ["verification", "lookback_turn"],
      line: 2,
      column: 5,
      message: 'unknown key "lookback_turn" — did you mean "lookback_turns"?',
    },
    {
      label: "a camelCase setting",
      yaml: "limits:\n  maxIterations: 5\n",
      path: ["limits", "maxIterations"],
      line: 2,
      column: 3,
      message: 'unknown key "maxIterations" — did you mean "max_iterations"?',
    },
    {
      label: "a kebab-case setting in a flow mapping",
      yaml: "usage_limit: { on-limit: exit }\n",
      path: ["usage_limit", "on-limit"],
      line: 1,
      column: 16,
      message: 'unknown key "on-limit" — did you mean "on_limit"?',
    },
    {
      label: "a setting at the top level",
      yaml: "version: 1\nmax_iterations: 5\n",
      path: ["max_iterations"],
      line: 2,
      column: 1,
      message: 'unknown key "max_iterations" — did you mean "limits.max_iterations"?',
    },
    {
      label: "a setting in the wrong section",
      yaml: "limits:\n  max_attempts: 5\n",
      path: ["limits", "max_attempts"],
      line: 2,
      column: 3,
      message: 'unknown key "max_attempts" — did you mean "tasks.max_attempts"?',
    },
    {
      label: "a setting that exists in two sections",
      yaml: "enabled: false\n",
      path: ["enabled"],
      line: 1,
      column: 1,
      message:
        'unknown key "enabled" — did you mean "enforcement.enabled" or "verification.enabled"?',
    },
    {
      label: "a key close to nothing",
      yaml: "circuit_breaker:\n  fuse: 3\n",
      path: ["circuit_breaker", "fuse"],
      line: 2,
      column: 3,
      message:
        'unknown key "fuse" — valid keys under circuit_breaker: no_progress_loops, same_error_loops, permission_denial_loops, cooldown_minutes',
    },
    {
      label: "a top-level key close to nothing",
      yaml: "agent: claude\n",
      path: ["agent"],
      line: 1,
      column: 1,
      message:
        'unknown key "agent" — valid keys at the top level: version, enforcement, exit_policy, verification, plans, logging, state, fleet, limits, tasks, stop_when, circuit_breaker, usage_limit',
    },
  ])("reports $label at the key", ({ yaml, path, line, column, message }) => {
    expect(onlyIssue(yaml)).toEqual({ path, line, column, message });
  });

  it("puts the file, position, path and suggestion in the error message", () => {
    const error = configErrorOf("exit_policy:\n  min_completion_indicatorz: 3\n");
    expect(error.message).toBe(
      'Invalid config (1 problem):\n  config.yaml:2:3 exit_policy.min_completion_indicatorz: unknown key "min_completion_indicatorz" — did you mean "min_completion_indicators"?',
    );
    expect(error.file).toBe("config.yaml");
  });
});

describe("parseConfig: invalid values", () => {
  it.each([
    {
      label: "a string for an integer",
      yaml: "exit_policy:\n  min_completion_indicators: two\n",
      path: ["exit_policy", "min_completion_indicators"],
      line: 2,
      column: 30,
      message: 'expected an integer ≥ 0, got "two"',
    },
    {
      label: "a fraction for an integer",
      yaml: "limits:\n  max_iterations: 1.5\n",
      path: ["limits", "max_iterations"],
      line: 2,
      column: 19,
      message: "expected an integer ≥ 1, got 1.5",
    },
    {
      label: "an integer below its minimum",
      yaml: "tasks:\n  max_attempts: 0\n",
      path: ["tasks", "max_attempts"],
      line: 2,
      column: 17,
      message: "expected an integer ≥ 1, got 0",
    },
    {
      label: "a threshold above 1",
      yaml: "verification:\n  fuzzy_match_threshold: 1.2\n",
      path: ["verification", "fuzzy_match_threshold"],
      line: 2,
      column: 26,
      message: "expected a number from 0 to 1, got 1.2",
    },
    {
      label: "a choice not offered",
      yaml: "usage_limit:\n  on_limit: sleep\n",
      path: ["usage_limit", "on_limit"],
      line: 2,
      column: 13,
      message: 'must be one of wait, exit, got "sleep"',
    },
    {
      label: "an unsupported version",
      yaml: "version: 2\n",
      path: ["version"],
      line: 1,
      column: 10,
      message: "must be 1 (the only config version), got 2",
    },
    {
      label: "a YAML 1.1 boolean",
      yaml: "enforcement:\n  enabled: yes\n",
      path: ["enforcement", "enabled"],
      line: 2,
      column: 12,
      message: 'expected true or false, got "yes"',
    },
    {
      label: "a zero cost cap",
      yaml: "limits:\n  max_cost_usd: 0\n",
      path: ["limits", "max_cost_usd"],
      line: 2,
      column: 17,
      message: "expected a number > 0, or null for no cap, got 0",
    },
    {
      label: "an infinite timeout",
      yaml: "limits:\n  iteration_timeout_minutes: .inf\n",
      path: ["limits", "iteration_timeout_minutes"],
      line: 2,
      column: 30,
      message: "expected a number > 0, got Infinity",
    },
    {
      label: "a negative cooldown",
      yaml: "circuit_breaker:\n  cooldown_minutes: -1\n",
      path: ["circuit_breaker", "cooldown_minutes"],
      line: 2,
      column: 21,
      message: "expected a number ≥ 0, got -1",
    },
    {
      label: "an empty value (at its key)",
      yaml: "verification:\n  lookback_turns:\n",
      path: ["verification", "lookback_turns"],
      line: 2,
      column: 3,
      message: "expected an integer ≥ 0, got null",
    },
    {
      label: "an empty plan path",
      yaml: 'plans:\n  default_plan: ""\n',
      path: ["plans", "default_plan"],
      line: 2,
      column: 17,
      message: 'expected a non-empty string, got ""',
    },
    {
      label: "a string for a list",
      yaml: "plans:\n  optional_headings: Later\n",
      path: ["plans", "optional_headings"],
      line: 2,
      column: 22,
      message: 'expected a list of strings, got "Later"',
    },
    {
      label: "a number in a list",
      yaml: "plans:\n  optional_headings:\n    - Later\n    - 5\n",
      path: ["plans", "optional_headings", 1],
      line: 4,
      column: 7,
      message: "expected a non-empty string, got 5",
    },
    {
      label: "a store that is neither files nor a PostgreSQL URL",
      yaml: "state:\n  store: mysql://db/loops\n",
      path: ["state", "store"],
      line: 2,
      column: 10,
      message:
        'expected files, or a PostgreSQL URL postgres://user@host:5432/database, got "mysql://db/loops"',
    },
    {
      label: "a fleet call limit that is not a whole number",
      yaml: "fleet:\n  max_calls_per_hour: 2.5\n",
      path: ["fleet", "max_calls_per_hour"],
      line: 2,
      column: 23,
      message: "expected an integer ≥ 1, or null for no cap, got 2.5",
    },
    {
      label: "a value for a section",
      yaml: "exit_policy: strict\n",
      path: ["exit_policy"],
      line: 1,
      column: 14,
      message: 'expected a mapping of settings (key: value), got "strict"',
    },
    {
      label: "an empty section",
      yaml: "limits:\ntasks:\n  max_attempts: 2\n",
      path: ["limits"],
      line: 1,
      column: 1,
      message: "expected a mapping of settings (key: value), got null",
    },
  ])("reports $label at the value", ({ yaml, path, line, column, message }) => {
    expect(onlyIssue(yaml)).toEqual({ path, line, column, message });
  });

  it("reports every problem together, in document order", () => {
    const yaml = [
      "version: 2", // 1
      "exit_policy:", // 2
      "  min_completion_indicators: two", // 3
      "  require_exit_signl: true", // 4
      "verification:", // 5
      "  fuzzy_match_threshold: 1.2", // 6
      "max_iterations: 5", // 7
      "usage_limit:", // 8
      "  on_limit: sleep", // 9
    ].join("\n");
    const error = configErrorOf(yaml);
    expect(error.issues.map((issue) => [issue.line, issue.column, issue.path])).toEqual([
      [1, 10, ["version"]],
      [3, 30, ["exit_policy", "min_completion_indicators"]],
      [4, 3, ["exit_policy", "require_exit_signl"]],
      [6, 26, ["verification", "fuzzy_match_threshold"]],
      [7, 1, ["max_iterations"]],
      [9, 13, ["usage_limit", "on_limit"]],
    ]);
    expect(error.message.split("\n")[0]).toBe("Invalid config (6 problems):");
    expect(error.message).toContain(
      'config.yaml:4:3 exit_policy.require_exit_signl: unknown key "require_exit_signl" — did you mean "require_exit_signal"?',
    );
  });

  it("points at the anchor and at each alias of a wrong value", () => {
    const error = configErrorOf(
      "stop_when:\n  done_signals: &bad -1\ntasks:\n  max_attempts: *bad\n",
    );
    expect(error.issues).toEqual([
      {
        path: ["stop_when", "done_signals"],
        line: 2,
        column: 22,
        message: "expected an integer ≥ 0, got -1",
      },
      {
        path: ["tasks", "max_attempts"],
        line: 4,
        column: 17,
        message: "expected an integer ≥ 1, got -1",
      },
    ]);
  });

  it("follows an alias into the anchored section", () => {
    const error = configErrorOf("x_shared: &limits\n  max_iterations: 0\nlimits: *limits\n");
    expect(error.issues.map(({ path, line, column }) => ({ path, line, column }))).toEqual([
      { path: ["x_shared"], line: 1, column: 1 },
      { path: ["limits", "max_iterations"], line: 2, column: 19 },
    ]);
  });
});

describe("parseConfig: YAML errors", () => {
  it("reports a syntax error with its position", () => {
    const issue = onlyIssue("exit_policy:\n  min_completion_indicators: [1,\n");
    expect(issue.line).toBe(3);
    expect(issue.column).toBe(1);
    expect(issue.message).toMatch(/^YAML syntax error: /);
  });

  it("reports a bad indentation with its position", () => {
    const issue = onlyIssue(
      "exit_policy:\n  require_exit_signal: true\n require_all_tasks_complete: true\n",
    );
    expect(issue).toMatchObject({ line: 3, column: 1 });
    expect(issue.message).toBe(
      "YAML syntax error: All mapping items must start at the same column",
    );
  });

  it("reports an unclosed quote with its position", () => {
    const issue = onlyIssue('plans:\n  default_plan: "plan.md\n');
    expect(issue.line).toBeGreaterThanOrEqual(2);
    expect(issue.message).toMatch(/^YAML syntax error: .*quote/);
  });

  it("reports a duplicate key at its second occurrence", () => {
    expect(onlyIssue("limits:\n  max_iterations: 5\n  max_iterations: 6\n")).toEqual({
      line: 3,
      column: 3,
      message: 'duplicate key "max_iterations": each key may appear only once in a mapping',
    });
  });

  it("reports a duplicate section", () => {
    const issue = onlyIssue("tasks:\n  max_attempts: 2\ntasks:\n  max_attempts: 3\n");
    expect(issue).toMatchObject({ line: 3, column: 1 });
    expect(issue.message).toContain('duplicate key "tasks"');
  });

  it("reports several documents", () => {
    const issue = onlyIssue("version: 1\n---\nversion: 1\n");
    expect(issue.line).toBe(2);
    expect(issue.message).toMatch(/^YAML syntax error: .*multiple documents/);
  });

  it("reports an alias with no anchor, at the alias", () => {
    const issue = onlyIssue("tasks:\n  max_attempts: *missing\n");
    expect(issue.message).toMatch(/^YAML error: Unresolved alias/);
    expect([issue.line, issue.column]).toEqual([2, 17]);
  });

  it("refuses an alias explosion", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
    ].join("\n");
    const issue = onlyIssue(bomb);
    expect(issue.message).toMatch(/^YAML error: Excessive alias count/);
    expect([issue.line, issue.column]).toEqual([2, 8]);
  });
});

describe("parseConfig: a top level that is not a mapping", () => {
  it.each([
    ["a list", "- version: 1\n", "a list"],
    ["a string", "just some text\n", '"just some text"'],
    ["a number", "42\n", "42"],
    ["an explicit null", "~\n", "null"],
  ])("rejects %s", (_label, yaml, found) => {
    expect(onlyIssue(yaml)).toEqual({
      line: 1,
      column: 1,
      message: `expected the config to be a mapping of settings (key: value), got ${found}`,
    });
  });
});

describe("parseConfig: file option", () => {
  it.each([
    ["no options", undefined],
    ["null options", null],
    ["no file", {}],
  ])("leaves the file out of messages with %s", (_label, options) => {
    let message = "";
    try {
      parseConfig("version: 3\n", options);
    } catch (error) {
      message = error instanceof Error ? error.message : "";
    }
    expect(message).toBe(
      "Invalid config (1 problem):\n  1:10 version: must be 1 (the only config version), got 3",
    );
  });
});
