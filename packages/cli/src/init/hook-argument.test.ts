import { describe, expect, it } from "vitest";
import { UsageError } from "../usage-error.js";
import { normalizeHookArgument, readHookMode } from "./hook-argument.js";

describe("normalizeHookArgument", () => {
  it("gives a bare --hook the value print", () => {
    expect(normalizeHookArgument(["--hook"])).toEqual(["--hook=print"]);
    expect(normalizeHookArgument(["--hook", "--force"])).toEqual(["--hook=print", "--force"]);
  });

  it("joins --hook with a following mode", () => {
    expect(normalizeHookArgument(["--force", "--hook", "install"])).toEqual([
      "--force",
      "--hook=install",
    ]);
    expect(normalizeHookArgument(["--hook", "print"])).toEqual(["--hook=print"]);
  });

  it("leaves --hook=value, other arguments and everything after -- alone", () => {
    expect(normalizeHookArgument(["--hook=install", "x"])).toEqual(["--hook=install", "x"]);
    expect(normalizeHookArgument(["--hook", "other"])).toEqual(["--hook=print", "other"]);
    expect(normalizeHookArgument(["--", "--hook"])).toEqual(["--", "--hook"]);
  });
});

describe("readHookMode", () => {
  it("reads the modes and an absent option", () => {
    expect(readHookMode(undefined)).toBeNull();
    expect(readHookMode("print")).toBe("print");
    expect(readHookMode("install")).toBe("install");
  });

  it("refuses any other value with a usage error", () => {
    expect(() => readHookMode("instal")).toThrow(UsageError);
    expect(() => readHookMode("instal")).toThrow(/--hook takes print or install, got "instal"/);
  });
});
