// The prose of an agent's answer is found in the mdast tree of each chunk of it. A chunk of
// plain paragraphs (most answers) is read by plainParagraphTree without micromark; it must give
// the tree mdast-util-from-markdown gives — the same blocks at the same positions, with no
// inline code in them — and, whenever it does not know, say so (null) rather than guess.
// Checked on generated chunks (prose lines and the lines that open every other block and their
// near misses, indents, tabs, line endings, odd whitespace and characters) and, through extractProse, on whole answers.

import fc from "fast-check";
import type { Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { describe, expect, it } from "vitest";
import { plainParagraphTree } from "./plain-paragraphs.js";
import { extractProse } from "./prose.js";

const SEED = 20_261_201;

/** Lines an answer is written with: prose, and the near misses of a block start. */
const PROSE_LINES = [
  "Implemented the task and its tests.",
  "All tasks are complete and the tests pass.",
  "Should I continue with the next task?",
  "Recent commits:",
  "2 files changed, 10 insertions",
  "1 test failed",
  "10.5% faster",
  "x",
  "a\tb\ttab inside",
  "trailing spaces  ",
  "trailing tab\t",
  "ends in a backslash\\",
  "\u00a0starts with a no-break space",
  "\u000bvertical tab",
  "\u000cform feed",
  "\u0000nul",
  "Émoji 👩‍💻 and 中文",
  "amp &amp; &#35; x",
  "<b>html</b> first",
  "inline <b>html</b>",
  "a `code` span",
  "see a]b",
  "! bang",
  "\\# escaped",
  "a # b",
  "Error: Cannot find module 'x'",
  "",
  "",
  " ",
  "\t",
  " \t ",
];

/** Lines that open another block, or nearly do. */
const BLOCK_LINES = [
  "3) done",
  "1. first",
  "12345678901. too long for a list",
  "===",
  "---",
  "- item",
  "* item",
  "+ item",
  "-",
  "# heading",
  "#hashtag",
  "###### six",
  "> quote",
  ">",
  "[ref]: https://example.com",
  "[not a definition",
  "```",
  "~~~",
  "***",
  "___",
  "* * *",
  "<div>",
  "<!-- comment -->",
  "`",
];

const INDENTS = ["", "", "", "", " ", "  ", "   ", "    ", "\t", " \t"];
const LINE_ENDINGS = ["\n", "\n", "\n", "\r\n", "\r"];

/** Chunks of prose lines, each maybe indented, with any line ending. */
const proseChunks: fc.Arbitrary<string> = fc
  .array(
    fc
      .tuple(
        fc.constantFrom(...INDENTS),
        fc.oneof(
          { arbitrary: fc.constantFrom(...PROSE_LINES), weight: 30 },
          { arbitrary: fc.constantFrom(...BLOCK_LINES), weight: 1 },
        ),
        fc.constantFrom(...LINE_ENDINGS),
      )
      .map((parts) => parts.join("")),
    { maxLength: 30 },
  )
  .chain((lines) =>
    fc.boolean().map((cut) => {
      const text = lines.join("");
      // Sometimes without its last line break.
      return cut ? text.replace(/(?:\r\n|\n|\r)$/, "") : text;
    }),
  );

/** The blocks of a tree as plainParagraphTree gives them: paragraphs without inline content. */
function blocksOf(tree: Root): unknown {
  return {
    type: tree.type,
    position: tree.position,
    children: tree.children.map((child) =>
      child.type === "paragraph"
        ? { type: child.type, children: [], position: child.position }
        : child,
    ),
  };
}

function hasInlineCode(node: Nodes): boolean {
  if (node.type === "inlineCode") return true;
  return "children" in node && node.children.some(hasInlineCode);
}

describe("plainParagraphTree", () => {
  it("gives mdast-util-from-markdown's blocks, or null, on generated chunks", {
    timeout: 60_000,
  }, () => {
    let read = 0;
    let runs = 0;
    fc.assert(
      fc.property(proseChunks, (source) => {
        runs += 1;
        const fast = plainParagraphTree(source);
        if (fast === null) return;
        read += 1;
        const reference = fromMarkdown(source);
        expect(fast).toEqual(blocksOf(reference));
        expect(hasInlineCode(reference)).toBe(false);
      }),
      { numRuns: 3000, seed: SEED },
    );
    // The property says something only if the fast reader reads many of them.
    expect(read).toBeGreaterThan(runs / 5);
  });

  it("reads prose with spaces, tabs inside lines and every line ending", () => {
    const source = "  First line  \r\nsecond\tline\r\n\r\n \t \n\u00a0third\rfourth";
    const fast = plainParagraphTree(source);
    expect(fast).not.toBeNull();
    expect(fast).toEqual(blocksOf(fromMarkdown(source)));
    expect(fast?.children.map((child) => child.position?.start.offset)).toEqual([2, 35]);
  });

  it.each([
    ["a heading", "Text\n# Heading\n"],
    ["a list item", "Text\n\n- item\n"],
    ["an ordered list item", "Text\n1) item\n"],
    ["a setext underline", "Text\n===\n"],
    ["a block quote", "> quoted\n"],
    ["indented code", "Text\n\n    code\n"],
    ["a tab before the text", "\tcode\n"],
    ["inline code", "Run `npm test`.\n"],
    ["HTML", "<div>\n"],
    ["a link definition", "[a]: b\n"],
  ])("leaves %s to the markdown parser", (_name, source) => {
    expect(plainParagraphTree(source)).toBeNull();
  });
});

/** Answers: prose chunks and block documents, with status blocks and fences between them. */
const answers = fc
  .array(
    fc.oneof(
      { arbitrary: proseChunks, weight: 4 },
      {
        arbitrary: fc.constantFrom(
          "\n---RALPH_STATUS---\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n---END_RALPH_STATUS---\n",
          "\n```\ncode words.\n```\n",
          "\n<tool_result>\nraw output\n</tool_result>\n",
          "\n## Changelog\n\n- a1b2c3d All tasks finished\n",
          "\n\n",
        ),
        weight: 1,
      },
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join("\n"));

describe("extractProse with plain paragraphs read directly", () => {
  // Each run parses its answer twice with micromark: seconds on a busy machine.
  it("finds the prose mdast-util-from-markdown's trees give, on generated answers", {
    timeout: 120_000,
  }, () => {
    fc.assert(
      fc.property(answers, (text) => {
        expect(extractProse(text)).toEqual(extractProse(text, { parseChunk: fromMarkdown }));
      }),
      { numRuns: 500, seed: SEED },
    );
  });
});
