import { describe, expect, it } from "vitest";
import { describeValue } from "./describe-value.js";

describe("describeValue", () => {
  it.each<[unknown, string]>([
    ["two", '"two"'],
    ["", '""'],
    [1.5, "1.5"],
    [-1, "-1"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [true, "true"],
    [null, "null"],
    [undefined, "nothing"],
    [[1, 2], "a list"],
    [{ a: 1 }, "a mapping"],
    [10n, "10"],
  ])("describes %s as %s", (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });
});
