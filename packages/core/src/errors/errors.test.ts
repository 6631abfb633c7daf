import { describe, expect, it } from "vitest";
import { ConfigError } from "../config/config-error.js";
import { PlanParseError } from "../plan/plan-parse-error.js";
import { formatDiagnostic, formatKeyPath } from "./diagnostic.js";
import { DiagnosticsError } from "./diagnostics-error.js";
import { lineColumnAt } from "./line-column.js";
import { LoopError } from "./loop-error.js";

describe("LoopError", () => {
  it("keeps code, name, message and cause", () => {
    const cause = new Error("disk on fire");
    const error = new LoopError({ message: "could not go on", cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("LoopError");
    expect(error.code).toBe("LOOP_ERROR");
    expect(error.message).toBe("could not go on");
    expect(error.cause).toBe(cause);
  });

  it("has no cause property when none is given", () => {
    expect("cause" in new LoopError({ message: "x" })).toBe(false);
  });

  it("recognises errors from another copy of the package by their global marker", () => {
    // A second copy of the package has its own class objects but the same Symbol.for marker.
    const foreign = Object.assign(new Error("from the other copy"), {
      [Symbol.for("loop.error")]: true,
      [Symbol.for("loop.error.DiagnosticsError")]: true,
      [Symbol.for("loop.error.ConfigError")]: true,
    });
    expect(foreign instanceof LoopError).toBe(false);
    expect(LoopError.isInstance(foreign)).toBe(true);
    expect(ConfigError.isInstance(foreign)).toBe(true);
    expect(PlanParseError.isInstance(foreign)).toBe(false);
  });

  it("tells subclasses apart", () => {
    const configError = new ConfigError({ issues: [{ message: "bad" }] });
    expect(LoopError.isInstance(configError)).toBe(true);
    expect(DiagnosticsError.isInstance(configError)).toBe(true);
    expect(ConfigError.isInstance(configError)).toBe(true);
    expect(PlanParseError.isInstance(configError)).toBe(false);
    expect(LoopError.isInstance(new Error("plain"))).toBe(false);
    expect(LoopError.isInstance(null)).toBe(false);
    expect(LoopError.isInstance("CONFIG_ERROR")).toBe(false);
  });
});

describe("diagnostics", () => {
  it("lists every problem with file, position and key path in the message", () => {
    const error = new ConfigError({
      file: "config.yaml",
      issues: [
        { message: "unknown key", line: 4, column: 5, path: ["exit_policy", "min_x"] },
        { message: "expected a boolean", line: 9, column: 12, path: ["plans", "items", 2] },
      ],
    });
    expect(error.code).toBe("CONFIG_ERROR");
    expect(error.file).toBe("config.yaml");
    expect(error.issues).toHaveLength(2);
    expect(error.message).toBe(
      [
        "Invalid config (2 problems):",
        "  config.yaml:4:5 exit_policy.min_x: unknown key",
        "  config.yaml:9:12 plans.items[2]: expected a boolean",
      ].join("\n"),
    );
  });

  it("leaves out what is unknown", () => {
    expect(formatDiagnostic({ message: "m" })).toBe("m");
    expect(formatDiagnostic({ message: "m", line: 3 })).toBe("3 m");
    expect(formatDiagnostic({ message: "m", line: 3, column: 1 }, "plan.md")).toBe("plan.md:3:1 m");
    expect(formatDiagnostic({ message: "m", path: [] }, "a.json")).toBe("a.json m");
    expect(formatKeyPath(["stories", 0, "passes"])).toBe("stories[0].passes");
  });
});

describe("lineColumnAt", () => {
  it.each([
    ["abc", 0, 1, 1],
    ["abc", 2, 1, 3],
    ["a\nb", 2, 2, 1],
    ["a\r\nb", 3, 2, 1],
    ["a\r\nb", 1, 1, 2],
    ["a\rb", 2, 2, 1],
    ["a\n\nb", 3, 3, 1],
    ["ab", 99, 1, 3],
  ])("%j at offset %i is %i:%i", (text, offset, line, column) => {
    expect(lineColumnAt(text, offset)).toEqual({ line, column });
  });
});
