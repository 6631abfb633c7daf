import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankByScore } from "./rank-by-score.js";

describe("rankByScore", () => {
  it("ranks best first and keeps equal scores in their order", () => {
    const scaled = Int32Array.from([250_000, 800_000, 250_000, 1_000_000, 800_000]);
    expect([...rankByScore(scaled, scaled.length)]).toEqual([3, 1, 4, 0, 2]);
  });

  it("ranks only the first `count` scores, into the buffer it is given", () => {
    const into = new Int32Array(8).fill(-1);
    const ranked = rankByScore(Int32Array.from([1, 3, 2, 9, 9]), 3, into);
    expect([...ranked]).toEqual([1, 2, 0]);
    expect([...into]).toEqual([1, 2, 0, -1, -1, -1, -1, -1]);
  });

  it("is a stable sort by descending score", () => {
    const scores = fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 200 });
    fc.assert(
      fc.property(scores, (values) => {
        const stable = values
          .map((value, index) => ({ value, index }))
          .sort((left, right) => right.value - left.value)
          .map(({ index }) => index);
        expect([...rankByScore(Int32Array.from(values), values.length)]).toEqual(stable);
      }),
      { seed: 15_017, numRuns: 300 },
    );
  });
});
