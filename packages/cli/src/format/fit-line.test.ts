import { describe, expect, it } from "vitest";
import { fitLine, oneLine, visibleWidth } from "./fit-line.js";

const red = (text: string) => `\u001b[31m${text}\u001b[39m`;

describe("visibleWidth", () => {
  it("counts code points, not UTF-16 units, and no colour sequences", () => {
    expect(visibleWidth("abc")).toBe(3);
    expect(visibleWidth("█░…")).toBe(3);
    expect(visibleWidth("𝒳y")).toBe(2);
    expect(visibleWidth(`a${red("bc")}d`)).toBe(4);
  });
});

describe("fitLine", () => {
  it("keeps a line that fits", () => {
    expect(fitLine("hello", 5)).toBe("hello");
    expect(fitLine("hello", Number.POSITIVE_INFINITY)).toBe("hello");
  });

  it("cuts a longer line to the width, ending in an ellipsis", () => {
    expect(fitLine("hello world", 8)).toBe("hello w…");
    expect(visibleWidth(fitLine("hello world", 8))).toBe(8);
    expect(fitLine("hello", 1)).toBe("…");
    expect(fitLine("hello", 0)).toBe("");
  });

  it("never splits a surrogate pair", () => {
    expect(fitLine("𝒳𝒳𝒳𝒳", 3)).toBe("𝒳𝒳…");
  });

  it("keeps colours without counting them, and resets a colour it cuts", () => {
    expect(fitLine(red("abcdef"), 6)).toBe(red("abcdef"));
    expect(fitLine(red("abcdef"), 4)).toBe("\u001b[31mabc…\u001b[0m");
  });
});

describe("oneLine", () => {
  it("turns line breaks, tabs and escape characters into single spaces", () => {
    expect(oneLine("first\nsecond\r\n\tthird")).toBe("first second third");
    expect(oneLine("bad \u001b[2J clear")).toBe("bad  [2J clear");
    expect(oneLine("  padded \n")).toBe("padded");
  });
});
