import { parseConfig } from "@loop/core";
import { describe, expect, it } from "vitest";
import { formatYamlValue } from "./yaml-value.js";

/** Reads `value` back through the config parser, as `plans.default_plan`. */
function readBack(value: string): string {
  return parseConfig(`plans:\n  default_plan: ${formatYamlValue(value)}\n`).plans.default_plan;
}

describe("formatYamlValue", () => {
  it("writes numbers, booleans and null bare", () => {
    expect([0.8, 20, true, false, null].map(formatYamlValue)).toEqual([
      "0.8",
      "20",
      "true",
      "false",
      "null",
    ]);
  });

  it("writes plain paths and words bare", () => {
    expect(formatYamlValue("plan.md")).toBe("plan.md");
    expect(formatYamlValue(".claude/loop/logs/decision.log")).toBe(
      ".claude/loop/logs/decision.log",
    );
    expect(formatYamlValue("Nice to Have")).toBe("Nice to Have");
  });

  it.each([
    "true",
    "No",
    "null",
    "~",
    "123",
    "1e3",
    ".5",
    "-x",
    "a: b",
    "#tag",
    " lead",
    "trail ",
    "[x]",
    "it's",
    'say "hi"',
    "x, y",
    "ünïcode",
  ])("quotes %j so that it reads back as the same string", (value) => {
    expect(readBack(value)).toBe(value);
  });

  it("writes lists in flow style that read back", () => {
    const list = ["Optional", "Nice to Have", "a, b", "yes"];
    const text = `plans:\n  optional_headings: ${formatYamlValue(list)}\n`;
    expect(formatYamlValue(["Optional", "Future"])).toBe("[Optional, Future]");
    expect(parseConfig(text).plans.optional_headings).toEqual(list);
    expect(formatYamlValue([])).toBe("[]");
  });

  it("refuses what one line cannot hold", () => {
    expect(() => formatYamlValue({ a: 1 })).toThrow(TypeError);
    expect(formatYamlValue({})).toBe("{}");
  });
});
