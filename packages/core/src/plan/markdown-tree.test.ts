import fc from "fast-check";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmTaskListItemFromMarkdown } from "mdast-util-gfm-task-list-item";
import { gfmTaskListItem } from "micromark-extension-gfm-task-list-item";
import { describe, expect, it } from "vitest";
import { chunkStarts } from "./markdown-chunks.js";
import { parseMarkdownTree, parseMarkdownTreeReference } from "./markdown-tree.js";

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
  "- - -",
  "* [ ] another star",
  "+ [ ] plus",
  "-",
  "```js\u2028info",
  "~~~\u2029",
  "<script>",
  "</script>",
  "<?php",
  "?>",
  "<![CDATA[",
  "]]>",
  "    - [ ] deeper",
  "      ```",
  "      <!--",
  "- ```",
  "> ```",
  "- <div>",
  "- [ ] **bold** and `code`",
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
        // Chunks as small as they come, so that every possible cut is made.
        const tree = parseMarkdownTree(body, { chunkSize: { lines: 0, length: 0 } });
        expect(tree.root.children).toEqual(whole.children);
        expect(tree.root.position).toEqual(whole.position);
      }),
      { numRuns: 2000 },
    );
  });

  it("does not cut after a fence or HTML block a list item may hold, which micromark ends with the item", () => {
    const small = { lines: 0, length: 0 };
    for (const body of [
      "- a\n  - b\n      ```\n# Title\n",
      "- a\n    <!--\n- c\n",
      "  - ````a\n\n- [ ] next\n",
      "- ```\n- b\n",
    ]) {
      const tree = parseMarkdownTreeReference(body, { chunkSize: small });
      expect(tree.root.children).toEqual(parseWhole(body).children);
      expect(chunkStarts(body, small)).toEqual([]);
    }
  });

  it("cuts before top-level headings and bullets, outside fences and HTML blocks", () => {
    const body =
      "# A\n- [ ] a\n## B\n```\n# not a heading\n```\n### C\n<div>\n# D\n\n# E\n<!--\n\n- x\n-->\n* [ ] y\n";
    const small = { lines: 0, length: 0 };
    expect(chunkStarts(body, small).map((start) => start.line)).toEqual([2, 3, 7, 11, 16]);
  });

  it("cuts only chunks of 40 lines or 2,000 characters, so that small sections share a parse", () => {
    const body = Array.from({ length: 30 }, (_, index) => `## S${index}\n- [ ] t${index}\n`).join(
      "",
    );
    expect(chunkStarts(body).map((start) => start.line)).toEqual([41]);
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
