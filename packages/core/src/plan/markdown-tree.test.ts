import fc from "fast-check";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmTaskListItemFromMarkdown } from "mdast-util-gfm-task-list-item";
import { gfmTaskListItem } from "micromark-extension-gfm-task-list-item";
import { describe, expect, it } from "vitest";
import { chunkStarts } from "./markdown-chunks.js";
import { parseMarkdownTree } from "./markdown-tree.js";

function parseWhole(body: string) {
  return fromMarkdown(body, {
    extensions: [gfmTaskListItem()],
    mdastExtensions: [gfmTaskListItemFromMarkdown()],
  });
}

const lineFragments = [
  "# Title",
  "## Tasks",
  "###### h6",
  "#no-space",
  " # indented heading",
  "  # nested heading",
  "- [ ] open task",
  "  - [x] nested done",
  "* [X] star",
  "1. [ ] ordered",
  "1) [ ] paren",
  "\t- [ ] tab",
  "- plain item",
  "> quote",
  "> - [ ] quoted task",
  "```",
  "```js",
  "````",
  "~~~",
  "  ```",
  "    indented code",
  "<!-- comment -->",
  "<!--",
  "-->",
  "<div>",
  "</div>",
  "<span>",
  "[ref]: https://example.com",
  "see [a][ref]",
  "text",
  "Setext",
  "===",
  "---",
  "",
  "",
];

describe("parseMarkdownTree", () => {
  it("gives the same tree as one whole parse, chunked or not", { timeout: 120_000 }, () => {
    const line = fc.tuple(fc.constantFrom(...lineFragments), fc.constantFrom("\n", "\r\n", "\r"));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const body = lines.map(([text, ending]) => text + ending).join("");
        const whole = parseWhole(body);
        const tree = parseMarkdownTree(body);
        expect(tree.root.children).toEqual(whole.children);
        expect(tree.root.position).toEqual(whole.position);
      }),
      { numRuns: 2000 },
    );
  });

  it("cuts before top-level headings outside fences, and nowhere after possible HTML", () => {
    const body = "# A\n- [ ] a\n## B\n```\n# not a heading\n```\n### C\n<div>\n# D\n";
    expect(chunkStarts(body).map((start) => start.line)).toEqual([3, 7]);
  });

  it("records each checkbox value's offsets in the body, after a byte order mark too", () => {
    const markdown = "\uFEFF# Plan\r\n\r\n## Tasks\r\n- [ ] a\r\n-\t[X] b\r\n";
    const tree = parseMarkdownTree(markdown);
    expect(tree.bom).toBe("\uFEFF");
    const values = [...tree.checkboxes.values()].map(({ start, end }) =>
      tree.body.slice(start, end),
    );
    expect(values).toEqual([" ", "X"]);
  });
});
