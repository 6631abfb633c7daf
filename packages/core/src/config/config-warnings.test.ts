import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../errors/diagnostic.js";
import { checkConfig } from "./config-warnings.js";
import { DEFAULT_CONFIG } from "./default-config.js";
import type { LoopConfigInput } from "./loop-config.js";
import { resolveConfig } from "./resolve-config.js";

/** The code and path of each warning for the config `input` resolves to. */
function warningsFor(input: LoopConfigInput): [string, string][] {
  return checkConfig(resolveConfig(input)).map((warning) => [warning.code, warning.path.join(".")]);
}

describe("checkConfig", () => {
  it("finds nothing in the default config", () => {
    expect(checkConfig(DEFAULT_CONFIG)).toEqual([]);
  });

  it.each<[string, LoopConfigInput, [string, string][]]>([
    [
      "a breaker that opens as a task uses its last attempt",
      { circuit_breaker: { no_progress_loops: 3 }, tasks: { max_attempts: 3 } },
      [["BREAKER_OPENS_BEFORE_TASK_SKIP", "circuit_breaker.no_progress_loops"]],
    ],
    [
      "a breaker that opens before a task uses its attempts",
      { circuit_breaker: { no_progress_loops: 2 }, tasks: { max_attempts: 5 } },
      [["BREAKER_OPENS_BEFORE_TASK_SKIP", "circuit_breaker.no_progress_loops"]],
    ],
    [
      "verification required but disabled",
      { exit_policy: { require_verification_pass: true }, verification: { enabled: false } },
      [["VERIFICATION_REQUIRED_BUT_DISABLED", "exit_policy.require_verification_pass"]],
    ],
    [
      "minimal mode with the default task flag",
      { enforcement: { enabled: false } },
      [["IGNORED_IN_MINIMAL_MODE", "exit_policy.require_all_tasks_complete"]],
    ],
    [
      "minimal mode with both full-policy flags",
      {
        enforcement: { enabled: false },
        exit_policy: { require_verification_pass: true },
        verification: { enabled: false },
      },
      [
        ["IGNORED_IN_MINIMAL_MODE", "exit_policy.require_all_tasks_complete"],
        ["IGNORED_IN_MINIMAL_MODE", "exit_policy.require_verification_pass"],
      ],
    ],
    [
      "fewer iterations than completion indicators",
      { limits: { max_iterations: 2 }, exit_policy: { min_completion_indicators: 3 } },
      [["MAX_ITERATIONS_BELOW_MIN_INDICATORS", "limits.max_iterations"]],
    ],
    [
      "an exit gate with no condition",
      {
        exit_policy: {
          min_completion_indicators: 0,
          require_exit_signal: false,
          require_all_tasks_complete: false,
        },
      },
      [["EXIT_GATE_ALWAYS_OPEN", "exit_policy"]],
    ],
    [
      "an exit gate whose only conditions are ignored in minimal mode",
      {
        enforcement: { enabled: false },
        exit_policy: { min_completion_indicators: 0, require_exit_signal: false },
      },
      [
        ["IGNORED_IN_MINIMAL_MODE", "exit_policy.require_all_tasks_complete"],
        ["EXIT_GATE_ALWAYS_OPEN", "exit_policy"],
      ],
    ],
  ])("warns about %s", (_label, input, expected) => {
    expect(warningsFor(input)).toEqual(expected);
  });

  it.each<[string, LoopConfigInput]>([
    ["a breaker one above the attempts", { circuit_breaker: { no_progress_loops: 4 } }],
    [
      "minimal mode with the full-policy flags off",
      { enforcement: { enabled: false }, exit_policy: { require_all_tasks_complete: false } },
    ],
    ["verification disabled and not required", { verification: { enabled: false } }],
    [
      "as many iterations as completion indicators",
      { limits: { max_iterations: 2 }, exit_policy: { min_completion_indicators: 2 } },
    ],
    [
      "a gate held only by the task flag",
      { exit_policy: { min_completion_indicators: 0, require_exit_signal: false } },
    ],
  ])("stays quiet for %s", (_label, input) => {
    expect(warningsFor(input)).toEqual([]);
  });

  it("says why the breaker setting matters", () => {
    const [warning] = checkConfig(resolveConfig({ circuit_breaker: { no_progress_loops: 3 } }));
    expect(warning?.message).toContain("opens the circuit breaker before it is skipped");
    expect(warning?.message).toContain("the loop stops instead of moving on");
  });

  it("says why requiring a disabled verification matters", () => {
    const [warning] = checkConfig(
      resolveConfig({
        exit_policy: { require_verification_pass: true },
        verification: { enabled: false },
      }),
    );
    expect(warning?.message).toContain("can never pass");
  });

  it("gives warnings formatDiagnostic can render", () => {
    const [warning] = checkConfig(resolveConfig({ enforcement: { enabled: false } }));
    if (warning === undefined) throw new Error("expected a warning");
    expect(formatDiagnostic(warning, "config.yaml")).toMatch(
      /^config\.yaml exit_policy\.require_all_tasks_complete: exit_policy\.require_all_tasks_complete is true but enforcement\.enabled is false: minimal mode ignores it/,
    );
  });

  it("does not change the config", () => {
    const config = resolveConfig({ circuit_breaker: { no_progress_loops: 1 } });
    const before = structuredClone(config);
    checkConfig(config);
    expect(config).toEqual(before);
  });
});
