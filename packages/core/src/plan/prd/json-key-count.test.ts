import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countKeysParsed, countKeysWritten } from "./json-key-count.js";

describe("countKeysWritten and countKeysParsed", () => {
  it("agree on any JSON that repeats no key", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, "\t"), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(countKeysWritten(text)).toBe(countKeysParsed(JSON.parse(text), 256));
      }),
      { numRuns: 1000 },
    );
  });

  it("counts nothing past the depth limit", () => {
    const nested = (depth: number) => `${"[".repeat(depth - 1)}{"a": 1}${"]".repeat(depth - 1)}`;
    expect(countKeysParsed(JSON.parse(nested(3)), 3)).toBe(1);
    expect(countKeysParsed(JSON.parse(nested(4)), 3)).toBeNull();
    expect(countKeysParsed(JSON.parse(nested(10_000)), 256)).toBeNull();
  });

  it.each([
    ['{"a": 1, "a": 2}', 2, 1],
    ['{"a": {"b": 1, "b": 2}}', 3, 2],
    ['[{"id": 1}, {"id": 1}]', 2, 2],
    ['{"a": 1, "\\u0061": 2}', 2, 1],
    ['{"__proto__": 1, "__proto__": 2}', 2, 1],
    ['{"k\\"": "v\\":", "x" : "a\\\\"}', 2, 2],
  ])("%s: %i written, %i kept", (text, written, parsed) => {
    expect(countKeysWritten(text)).toBe(written);
    expect(countKeysParsed(JSON.parse(text), 256)).toBe(parsed);
  });
});
