import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import { resolveConfig } from "../config/resolve-config.js";
import type { SafetyCheckName } from "./exit-check.js";
import {
  EXIT_REASONS,
  type ExitReason,
  isCompletionReason,
  isErrorReason,
  isExitReason,
} from "./exit-reasons.js";
import { shouldExit } from "./should-exit.js";

const policyDoc = readFileSync(new URL("../../../../docs/policy.md", import.meta.url), "utf8");

describe("EXIT_REASONS", () => {
  it("every code is unique", () => {
    expect(new Set(EXIT_REASONS).size).toBe(EXIT_REASONS.length);
  });

  it.each(EXIT_REASONS)("%s is snake_case", (reason) => {
    expect(reason).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
  });

  it("cannot be changed at run time", () => {
    expect(Object.isFrozen(EXIT_REASONS)).toBe(true);
  });

  it("isCompletionReason is true exactly for all_tasks_complete, exit_signal, prd_complete and plan_complete", () => {
    expect(EXIT_REASONS.filter((reason) => isCompletionReason(reason))).toEqual([
      "all_tasks_complete",
      "exit_signal",
      "prd_complete",
      "plan_complete",
    ]);
  });

  it("isErrorReason is true exactly for plan_error, config_error, state_error, limits_error and error", () => {
    expect(EXIT_REASONS.filter((reason) => isErrorReason(reason))).toEqual([
      "plan_error",
      "config_error",
      "state_error",
      "limits_error",
      "error",
    ]);
  });

  it("isExitReason accepts every code and nothing else", () => {
    for (const reason of EXIT_REASONS) expect(isExitReason(reason)).toBe(true);
    for (const value of ["", "ALL_TASKS_COMPLETE", "done", " aborted", null, undefined, 3, {}]) {
      expect(isExitReason(value)).toBe(false);
    }
  });

  it("every safety check of shouldExit is named after an exit reason", () => {
    expectTypeOf<SafetyCheckName>().toExtend<ExitReason>();
    const decision = shouldExit({
      config: resolveConfig({}),
      tasks: [],
      iterations: 0,
      completionIndicators: 0,
      startedAt: 0,
      now: 0,
    });
    const safety = decision.checks.filter((check) => check.kind === "safety");
    expect(safety.length).toBeGreaterThan(0);
    for (const check of safety) expect(EXIT_REASONS).toContain(check.name);
  });

  it.each(EXIT_REASONS)("%s is documented in docs/policy.md", (reason) => {
    expect(policyDoc).toContain(`\`${reason}\``);
  });

  it("docs/policy.md's table of codes lists every code once, in order, with its kind", () => {
    const start = policyDoc.indexOf("\n## Exit reason codes\n");
    const end = policyDoc.indexOf("\n## ", start + 1);
    const rows = policyDoc
      .slice(start, end)
      .split("\n")
      .flatMap((line) => {
        const match = /^\|\s*`([a-z_]+)`\s*\|\s*(\w+)\s*\|/.exec(line);
        return match ? [[match[1], match[2]]] : [];
      });
    expect(rows).toEqual(
      EXIT_REASONS.map((reason) => [
        reason,
        isCompletionReason(reason)
          ? "completion"
          : ["plan_error", "config_error", "state_error", "limits_error", "error"].includes(reason)
            ? "error"
            : "safety",
      ]),
    );
  });
});
