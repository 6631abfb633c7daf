import { describe, expect, it } from "vitest";
import { formatCountdown, formatDuration } from "./format-duration.js";

describe("formatDuration", () => {
  it.each([
    [0, "0s"],
    [999, "0s"],
    [45_000, "45s"],
    [60_000, "1m 00s"],
    [723_000, "12m 03s"],
    [3_600_000, "1h 00m"],
    [3_900_000, "1h 05m"],
    [97_200_000, "1d 03h"],
    [-5_000, "0s"],
    [Number.NaN, "0s"],
  ])("shows %d ms as %s", (milliseconds, text) => {
    expect(formatDuration(milliseconds)).toBe(text);
  });
});

describe("formatCountdown", () => {
  it("rounds the time left up to the second", () => {
    expect(formatCountdown(10_500, 0)).toBe("11s");
    expect(formatCountdown(723_000, 0)).toBe("12m 03s");
    expect(formatCountdown(1_001, 1_000)).toBe("1s");
  });

  it("shows 0s once the moment has passed", () => {
    expect(formatCountdown(1_000, 1_000)).toBe("0s");
    expect(formatCountdown(1_000, 9_000)).toBe("0s");
  });
});
