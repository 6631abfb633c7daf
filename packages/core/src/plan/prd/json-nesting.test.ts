import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { excessiveNestingOffset } from "./json-nesting.js";

/** The first implementation, character by character: the reference for the one that skips strings. */
function referenceOffset(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text.charAt(index);
    if (inString) {
      if (character === "\\") index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') {
      inString = true;
    } else if (character === "{" || character === "[") {
      depth += 1;
      if (depth > limit) return index;
    } else if (character === "}" || character === "]") {
      depth = Math.max(0, depth - 1);
    }
  }
  return -1;
}

const jsonish = fc
  .array(fc.constantFrom("{", "}", "[", "]", '"', "\\", "a", " ", ":", ","), { maxLength: 60 })
  .map((characters) => characters.join(""));

describe("excessiveNestingOffset", () => {
  it("finds what the character-by-character scan finds, on any text", () => {
    fc.assert(
      fc.property(jsonish, fc.integer({ min: 0, max: 4 }), (text, limit) => {
        expect(excessiveNestingOffset(text, limit)).toBe(referenceOffset(text, limit));
      }),
      { numRuns: 5000 },
    );
  });

  it("skips brackets in strings, escaped quotes included", () => {
    expect(excessiveNestingOffset('["[[", "\\"[[", [[]]]', 2)).toBe(16);
    expect(excessiveNestingOffset('["\\\\", [[]]]', 2)).toBe(8);
    expect(excessiveNestingOffset('["[[[[', 2)).toBe(-1);
  });
});
