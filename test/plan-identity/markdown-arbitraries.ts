// Markdown that stresses the fast plan parser where it must agree with micromark: every block
// it reads or hands over (headings, items, fences indented and unclosed, quotes, HTML, setext
// headings, lazy lines, definitions), inline syntax it reads or does not (emphasis, code, links,
// escapes, references), and the line endings, tabs and byte order mark plans are written with.

import fc from "fast-check";

/** Lines with one block construct each (or a near miss), written without indentation. */
const LINE_BODIES = [
  "# Title",
  "## Tasks",
  "### Phase 1: *part* one",
  "###### h6",
  "####### seven",
  "#no-space",
  "## a ##  ",
  "# #",
  "#",
  "## RALPH_STATUS",
  "## Acceptance Criteria",
  "## Optional",
  "# Plan #",
  "- [ ] TASK-1 open task",
  "- [x] TASK-2 Implement the **1th** endpoint of `inventory/0`",
  "* [X] star",
  "+ [ ] plus",
  "1. [ ] ordered",
  "2) [x] paren",
  "10. [ ] ten",
  "3. [ ] three",
  "- [ ] **TASK-3**: bold id",
  "- [ ] `TASK-4` code id",
  "- [ ] see [a][ref]",
  "- [ ] [link](http://x.y) first",
  "- [ ]  two spaces",
  "- [ ]\ttab after",
  "- [ ]",
  "- [ ] ",
  "- [x]x",
  "- [y] not a box",
  "-\t[ ] tab bullet",
  "- [ ] `code` first",
  "- [ ] a ] b",
  "- [ ] *emph* _under_ __strong__ ***both***",
  "- [ ] ![img](x)",
  "- [ ] <http://a.b>",
  "- [ ] a\\",
  "- [ ] &copy; &#35;",
  "- [ ] a [b] c",
  "- plain item",
  "-",
  "- ",
  "*",
  "+",
  "1.",
  "* * *",
  "- - -",
  "---",
  "___",
  "***",
  "===",
  "-- ",
  "--",
  "Setext",
  "> quote",
  "> - [ ] quoted task",
  ">quote no space",
  "> > nested",
  ">",
  "> # heading in quote",
  "> ```",
  "- ```",
  "- # h",
  "- > q",
  "```",
  "```js",
  "```js meta data",
  "````",
  "~~~",
  "~~~~",
  "```js\u2028info",
  "~~~\u2029",
  "``` `bad`",
  "export const route = 1;",
  "code line",
  "\tcode with tab",
  "<!-- comment -->",
  "<!--",
  "-->",
  "<div>",
  "</div>",
  "<span>inline</span>",
  "a <b> c",
  "<![CDATA[",
  "]]>",
  "<?php",
  "?>",
  "<script>",
  "</script>",
  "[ref]: https://example.com",
  "text",
  "plain paragraph line",
  "lazy continuation",
  "with trailing space ",
  "hard break  ",
  "esc \\* x",
  "amp &amp; x",
  "a & b",
  "x * y * z",
  "a_b_c",
  "*a **b** c*",
  "**a*",
  "`a``b`",
  "`` ` ``",
  "``unclosed",
  "- EXIT_SIGNAL: false",
  "- completion_indicators: 2",
  "**EXIT_SIGNAL**: **true**",
  "- current_task: TASK-1",
  "Émoji 👩‍💻 *x*",
  "中文 **粗体**",
  "\u00a0nbsp",
  "",
];

const INDENTS = ["", "", "", " ", "  ", "   ", "    ", "      ", "\t"];
const LINE_ENDINGS = ["\n", "\n", "\n", "\r\n", "\r"];

/** Documents of up to 40 such lines, each indented, with any line ending, maybe a BOM. */
export const markdownLines: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(
      fc
        .tuple(
          fc.constantFrom(...INDENTS),
          fc.constantFrom(...LINE_BODIES),
          fc.constantFrom(...LINE_ENDINGS),
        )
        .map((parts) => parts.join("")),
      { maxLength: 40 },
    ),
    fc.boolean(),
  )
  .map(([lines, bom]) => (bom ? "\uFEFF" : "") + lines.join(""));

/** Inline text of emphasis markers, code spans and punctuation, in a task, heading or quote. */
export const inlineMarkdown: fc.Arbitrary<string> = (() => {
  const inline = fc
    .array(
      fc.constantFrom(
        "a",
        "b",
        " ",
        "*",
        "**",
        "_",
        "__",
        "`",
        "``",
        "!",
        ".",
        ",",
        "é",
        "👩",
        "(",
        ")",
        "-",
        ":",
        "\t",
        "1",
        "[",
        "]",
        "\\",
        "&",
        "<",
      ),
      { minLength: 1, maxLength: 14 },
    )
    .map((parts) => parts.join(""));
  return fc
    .tuple(
      fc.constantFrom("- [ ] ", "- [x] TASK-1 ", "# ", "", "  - ", "1. ", "> "),
      inline,
      fc.constantFrom("", "\n  cont", "\ntext", "\n\n- [ ] next", "\n> more"),
      inline,
    )
    .map(([prefix, first, middle, last]) => `${prefix}${first}${middle}${last}\n`);
})();

/** Plans as people write them: sections, task items with nesting, code under items, notes. */
export const planShaped: fc.Arbitrary<string> = (() => {
  const title = fc.constantFrom(
    "Design schema",
    "Implement the **1th** endpoint of `inventory/0`",
    "Fix *the* bug",
    "a_b_c d",
    "See [docs](x.md)",
    "Émoji 👩‍💻",
    "trailing ",
    "x  y",
    "`a` b `c`",
    "**bold**",
    "_under_ score",
  );
  const item = fc
    .tuple(
      fc.constantFrom("", "", "  ", "    ", " ", "   "),
      fc.constantFrom("- ", "* ", "+ ", "1. ", "2) ", "-  "),
      fc.constantFrom("[ ] ", "[x] ", "[X] ", "", "[ ]  "),
      fc.constantFrom("TASK-1 ", "TASK-2: ", "", ""),
      title,
    )
    .map((parts) => parts.join(""));
  const heading = fc
    .tuple(
      fc.constantFrom("#", "##", "###"),
      fc.constantFrom(
        " Tasks",
        " RALPH_STATUS",
        " Phase 1: part",
        " Acceptance Criteria",
        " Optional",
        " Notes",
      ),
    )
    .map((parts) => parts.join(""));
  const other = fc.constantFrom(
    "",
    "",
    "> Work through these in order.",
    "Some paragraph text.",
    "  ```ts\n  export const x = 1;\n  ```",
    "```\ncode\n```",
    "    ```\n    nested\n    ```",
    "  ```\n  unclosed",
    "---",
    "Title\n===",
    "<div>\n- [ ] no\n</div>",
    "  > note under item",
    "lazy line",
    "- EXIT_SIGNAL: false\n- completion_indicators: 1",
  );
  return fc
    .tuple(
      fc.array(fc.oneof(item, item, item, heading, other), { maxLength: 50 }),
      fc.constantFrom("\n", "\r\n"),
    )
    .map(([blocks, ending]) => `${blocks.join("\n").replace(/\n/g, ending)}${ending}`);
})();
