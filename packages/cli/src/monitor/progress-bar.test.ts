import { describe, expect, it } from "vitest";
import { MAXIMUM_BAR_WIDTH, renderProgressBar } from "./progress-bar.js";

function barOf(text: string): string {
  return /^\[([█░]+)\]/.exec(text)?.[1] ?? "";
}

describe("renderProgressBar", () => {
  it("fills the bar in proportion and shows the count and percentage", () => {
    const text = renderProgressBar(2, 5, 23);
    expect(text).toBe(`[${"█".repeat(5)}${"░".repeat(8)}] 2/5 40%`);
    expect(text).toHaveLength(23);
  });

  it("rounds the percentage down, so 100% means done", () => {
    expect(renderProgressBar(199, 200, 40)).toMatch(/ 199\/200 99%$/);
    expect(renderProgressBar(5, 5, 20)).toMatch(/^\[█+\] 5\/5 100%$/);
  });

  it("draws an empty bar without a percentage for a plan without tasks", () => {
    expect(renderProgressBar(0, 0, 20)).toMatch(/^\[░+\] 0\/0$/);
  });

  it("keeps the bar between 5 columns and the maximum", () => {
    expect(barOf(renderProgressBar(1, 2, 4))).toHaveLength(5);
    expect(barOf(renderProgressBar(1, 2, 500))).toHaveLength(MAXIMUM_BAR_WIDTH);
    expect(barOf(renderProgressBar(1, 2, Number.POSITIVE_INFINITY))).toHaveLength(
      MAXIMUM_BAR_WIDTH,
    );
  });

  it("does not overflow with more done than planned", () => {
    expect(renderProgressBar(7, 5, 20)).toMatch(/^\[█+\] 7\/5 100%$/);
  });
});
