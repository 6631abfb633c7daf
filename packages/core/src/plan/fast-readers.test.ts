// The plan parser reads ids, headings and task text without regular expressions on its hot
// path (issue 15). These pin each hand-written reader to the expression it replaced, on
// generated text built from the characters that matter to each.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseInline, summarizeInline } from "./fast-inline.js";
import { normalizeHeading } from "./heading-match.js";
import { lineTable } from "./line-table.js";
import { collapseWhitespace, plainText } from "./plain-text.js";
import { readExplicitTaskId } from "./task-id.js";

const SEED = 20_261_201;

/** Text of the characters an id, its separator and whitespace are made of. */
const idLike = fc
  .array(
    fc.constantFrom(
      ..."AZTK019_-:.—– \t\u00A0\u2028\uFEFF\u3000xé*`".split(""),
      "TASK-1",
      "US_2-15",
      " - ",
      "--",
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(""));

const explicitIdPattern =
  /^([A-Z][A-Z0-9_]*-[0-9]+)(?:\s*:|\s*[—–]|\s+-+(?=\s|$)|\.(?=\s|$)|(?=\s|$))/u;

function readWithPattern(text: string) {
  const match = explicitIdPattern.exec(text);
  const id = match?.[1];
  if (match === null || id === undefined) return null;
  return { id, title: text.slice(match[0].length).trim() };
}

function normalizeWithPatterns(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[*`]/g, "")
    .trim()
    .replace(/^\d+(?:\.\d+)*[.)]?\s+/u, "")
    .replace(/\s*:+$/u, "")
    .toLowerCase()
    .replace(/[\s_-]+/gu, " ")
    .trim();
}

describe("the plan's hand-written readers read what the regular expressions read", () => {
  it("readExplicitTaskId", () => {
    fc.assert(
      fc.property(idLike, (text) => {
        expect(readExplicitTaskId(text)).toEqual(readWithPattern(text));
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });

  it("normalizeHeading", () => {
    fc.assert(
      fc.property(idLike, (text) => {
        expect(normalizeHeading(text)).toBe(normalizeWithPatterns(text));
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });

  it("collapseWhitespace", () => {
    fc.assert(
      fc.property(idLike, (text) => {
        expect(collapseWhitespace(text)).toBe(text.replace(/\s+/gu, " ").trim());
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});

/** One line of inline text made of what plain text and whitespace collapsing turn on. */
const inlineLine = fc
  .array(
    fc.constantFrom("a", "TASK-1", " ", "  ", "`", "``", "*", "**", "_", "é", "\t", "\u00A0"),
    {
      minLength: 1,
      maxLength: 14,
    },
  )
  .map((parts) => parts.join(""));

describe("the inline summary's plain text", () => {
  it("is the plain text of the nodes the same pieces build", () => {
    fc.assert(
      fc.property(inlineLine, fc.boolean(), (line, task) => {
        const text = task ? `] ${line}` : line;
        const lines = lineTable(text);
        const segments = [{ start: task ? 1 : 0, end: text.length, line: 0 }];
        const previous = task ? 93 : null;
        const children = parseInline(lines, segments, previous);
        const summary = summarizeInline(lines, segments, previous, task);
        if (children === null || summary === null) {
          expect(summary).toBe(children);
          return;
        }
        if (summary.text !== null) return;
        const head = children[0];
        if (task && head?.type === "text") head.value = head.value.slice(1);
        expect(summary.plain).toBe(plainText({ type: "paragraph", children }));
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});
