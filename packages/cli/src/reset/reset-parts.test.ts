import { describe, expect, it } from "vitest";
import { resetPartsOf } from "./reset-parts.js";

describe("resetPartsOf", () => {
  it("resets everything but the cost when no part is named, or with --all", () => {
    const everything = ["breaker", "failed", "iterations", "session"];
    expect(resetPartsOf({})).toEqual(everything);
    expect(resetPartsOf({ all: true })).toEqual(everything);
  });

  it("resets only the parts named", () => {
    expect(resetPartsOf({ breaker: true })).toEqual(["breaker"]);
    expect(resetPartsOf({ session: true, failed: true })).toEqual(["failed", "session"]);
  });

  it("resets the cost only when --cost names it, alone or with --all", () => {
    expect(resetPartsOf({ cost: true })).toEqual(["cost"]);
    expect(resetPartsOf({ all: true, cost: true })).toEqual([
      "breaker",
      "failed",
      "iterations",
      "session",
      "cost",
    ]);
  });
});
