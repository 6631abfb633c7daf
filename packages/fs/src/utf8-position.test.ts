import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findInvalidUtf8 } from "./utf8-position.js";

describe("findInvalidUtf8", () => {
  it("accepts valid UTF-8 of every length", () => {
    expect(findInvalidUtf8(Buffer.from("a é € 😀 \uFEFF\r\n", "utf8"))).toBeNull();
    expect(findInvalidUtf8(new Uint8Array())).toBeNull();
  });

  it.each([
    ["a lone continuation byte", [0x61, 0x80], 1],
    ["an invalid lead byte", [0xff], 0],
    ["an overlong two-byte form", [0xc0, 0xaf], 0],
    ["an overlong three-byte form", [0xe0, 0x80, 0xaf], 0],
    ["a surrogate", [0xed, 0xa0, 0x80], 0],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
    ["a truncated sequence", [0x61, 0xe2, 0x82], 1],
  ])("finds %s", (_, bytes, offset) => {
    expect(findInvalidUtf8(Uint8Array.from(bytes))?.offset).toBe(offset);
  });

  it("gives the line and the column in characters", () => {
    const bytes = Buffer.concat([Buffer.from("one\ntwö €", "utf8"), Buffer.from([0xe9])]);
    expect(findInvalidUtf8(bytes)).toEqual({ offset: 12, line: 2, column: 6 });
  });

  it("agrees with Node's validator, and everything before the position is valid", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const position = findInvalidUtf8(bytes);
        expect(position === null).toBe(isUtf8(bytes));
        if (position !== null) expect(isUtf8(bytes.subarray(0, position.offset))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
