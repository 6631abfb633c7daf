import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { neutralizeLongParagraphs, neutralizeRuns } from "./long-paragraphs.js";
import { findTooDeepNesting, followContainers } from "./nesting-depth.js";

// The two passes every plan goes through before it is parsed first check, cheaply, whether
// there is anything to do (a paragraph longer than 4,000 characters, a line that could nest
// more than 100 containers); these properties pin that the checks never change a result.

const PIECES = [
  "- ",
  "* ",
  "+ ",
  "1. ",
  "> ",
  "  ",
  "\t",
  "-",
  ">",
  "a",
  "#",
  "## x",
  "```",
  "~~~",
  "<",
  "===",
  "---",
  "- - -",
  "*_-",
  "\u00a0",
  "\u2028",
  "\r\n",
  "\n",
  "\r",
  "text ",
  "12345678901. ",
  "9) ",
  "#######",
  "` `",
  "~~",
  "  *",
  "x".repeat(900),
];

describe("the checks before parsing", () => {
  it("leave long paragraphs to neutralise exactly when the full pass finds some", () => {
    const texts = fc
      .array(fc.constantFrom(...PIECES), { maxLength: 60 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(texts, (text) => {
        expect(neutralizeLongParagraphs(text)).toEqual(neutralizeRuns(text));
      }),
      { seed: 4, numRuns: 3000 },
    );
  });

  it("find nesting too deep exactly when following the containers does", () => {
    const parts = fc.constantFrom("- ", "> ", "  ", "\t", "1. ", "* ", "\n", "a\n", "", "   ");
    const texts = fc.array(parts, { maxLength: 300 }).map((pieces) => pieces.join(""));
    fc.assert(
      fc.property(texts, (text) => {
        expect(findTooDeepNesting(text)).toEqual(followContainers(text));
      }),
      { seed: 5, numRuns: 1000 },
    );
  });
});
