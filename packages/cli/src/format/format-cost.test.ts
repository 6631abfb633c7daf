import { describe, expect, it } from "vitest";
import { formatCost } from "./format-cost.js";

describe("formatCost", () => {
  it("shows a reported cost in dollars, a zero one too", () => {
    expect(formatCost(0.4213)).toBe("$0.42");
    expect(formatCost(0)).toBe("$0.00");
  });

  it("never shows a cost nobody reported as $0.00", () => {
    expect(formatCost(undefined)).toBe("cost unknown");
    expect(formatCost(null)).toBe("cost unknown");
  });
});
