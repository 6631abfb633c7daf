import { describe, expect, it } from "vitest";
import { wrapText } from "./wrap-text.js";

describe("wrapText", () => {
  it("breaks at spaces within the width", () => {
    expect(wrapText("one two three four", 9)).toEqual(["one two", "three", "four"]);
  });

  it("gives a long word its own line and collapses whitespace", () => {
    expect(wrapText("a  supercalifragilistic\nb", 5)).toEqual(["a", "supercalifragilistic", "b"]);
  });

  it("gives one empty line for empty text", () => {
    expect(wrapText("", 10)).toEqual([""]);
  });
});
