import { describe, expect, it } from "vitest";
import { parsePrd } from "./parse-prd.js";
import { updatePrd } from "./update-prd.js";

/** A prd.json formatted one way, and the story of it that the test marks as passing. */
interface CorpusEntry {
  readonly name: string;
  readonly text: string;
  /** The id of the story to mark as passing (its `passes` is `false`). */
  readonly id: string;
  /** A substring that ends right before the target story's `false`. */
  readonly before: string;
  /** The document's numeric completedStories, written as in the text, and its new value. */
  readonly completedStories?: {
    readonly before: string;
    readonly from: string;
    readonly to: string;
  };
}

const twoSpaces = `{
  "project": "MyApp",
  "branchName": "ralph/feature",
  "description": "Two-space indentation, LF, final newline",
  "userStories": [
    {
      "id": "US-001",
      "title": "First",
      "acceptanceCriteria": ["One", "Two"],
      "priority": 1,
      "passes": true,
      "notes": ""
    },
    {
      "id": "US-002",
      "title": "Second",
      "acceptanceCriteria": ["Three"],
      "priority": 2,
      "passes": false,
      "notes": "keep me"
    }
  ]
}
`;

const fourSpaces = `{
    "project": "todo-api",
    "stories": [
        {
            "id": "S1",
            "title": "Model",
            "dependencies": [],
            "verification": "npm test -- model",
            "passes": false
        },
        {
            "id": "S2",
            "title": "List",
            "dependencies": ["S1"],
            "verification": "npm test -- list",
            "passes": false
        }
    ],
    "completedStories": 0
}
`;

const tabs =
  '{\n\t"userStories": [\n\t\t{\n\t\t\t"id": "A",\n\t\t\t"title": "Tabbed",\n\t\t\t"passes": false\n\t\t},\n\t\t{\n\t\t\t"id": "B",\n\t\t\t"title": "Also tabbed",\n\t\t\t"passes": false\n\t\t}\n\t]\n}';

const crlf = [
  "{",
  '  "userStories": [',
  '    { "id": "US-001", "title": "Windows", "passes": false, "notes": "line\\r\\nbreak" },',
  '    { "id": "US-002", "title": "Still Windows", "passes": false }',
  "  ]",
  "}",
  "",
].join("\r\n");

const minified =
  '{"project":"min","stories":[{"id":1,"title":"One","passes":true},{"id":2,"title":"Two","dependencies":[1],"passes":false},{"id":3,"title":"Three","passes":false}]}';

const unicode = `{
  "project": "Caf\\u00e9 ☕ — ünïcödé",
  "userStories": [
    {
      "id": "caf\\u00e9-1",
      "title": "\\"Quoted\\" title with \\\\ backslash, \\t tab and 🚀",
      "description": "日本語のテキスト",
      "passes": false,
      "notes": "\\ud83d\\ude80 escaped surrogate pair"
    }
  ]
}
`;

const mixed = [
  "{",
  '\t"userStories" : [',
  "\t\t{",
  '\t\t\t"passes" : false,',
  '\t\t\t"id" : 7,',
  '\t\t\t"title" : "Passes first, spaced colons",',
  '\t\t\t"meta" : { "owner" : "ada", "tags" : [ "x", "y" ], "ratio" : 1.5e3 }',
  "\t\t},",
  "\t\t{",
  '\t\t\t"id" : 8,',
  '\t\t\t"title" : "Other",',
  '\t\t\t"passes" : false',
  "\t\t}",
  "\t]",
  "}",
].join("\r\n");

const byteOrderMark = `\uFEFF{
  "stories": [
    { "id": "X", "title": "With BOM and trailing blank lines", "passes": false }
  ],
  "completedStories": 0
}


`;

const corpus: readonly CorpusEntry[] = [
  {
    name: "2-space, userStories",
    text: twoSpaces,
    id: "US-002",
    before: '"priority": 2,\n      "passes": ',
  },
  {
    name: "4-space, ralph-loop stories with completedStories",
    text: fourSpaces,
    id: "S2",
    before: '"npm test -- list",\n            "passes": ',
    completedStories: { before: '"completedStories": ', from: "0", to: "1" },
  },
  {
    name: "tabs, no final newline",
    text: tabs,
    id: "B",
    before: '"Also tabbed",\n\t\t\t"passes": ',
  },
  { name: "CRLF", text: crlf, id: "US-001", before: '"Windows", "passes": ' },
  { name: "minified one line", text: minified, id: 2, before: '"dependencies":[1],"passes":' },
  {
    name: "unicode and escapes",
    text: unicode,
    id: "café-1",
    before: '"日本語のテキスト",\n      "passes": ',
  },
  {
    name: "tabs, CRLF, spaced colons, passes first",
    text: mixed,
    id: 7,
    before: '\t\t{\r\n\t\t\t"passes" : ',
  },
  {
    name: "byte order mark, trailing blank lines",
    text: byteOrderMark,
    id: "X",
    before: 'blank lines", "passes": ',
    completedStories: { before: '"completedStories": ', from: "0", to: "1" },
  },
].map((entry) => ({ ...entry, id: String(entry.id) }));

/** `text` with `length` characters at `offset` replaced by `content`. */
function replaceAt(text: string, offset: number, length: number, content: string): string {
  return text.slice(0, offset) + content + text.slice(offset + length);
}

/** The offset right after the only occurrence of `needle` in `text`. */
function offsetAfter(text: string, needle: string): number {
  const offset = text.indexOf(needle);
  expect(offset, `${JSON.stringify(needle)} occurs once`).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(needle, offset + 1), `${JSON.stringify(needle)} occurs once`).toBe(-1);
  return offset + needle.length;
}

describe("updatePrd on a corpus of formats", () => {
  it("has at least 6 differently formatted documents", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(6);
  });

  it.each(corpus)("$name: changes exactly the false characters to true", (entry) => {
    const offset = offsetAfter(entry.text, entry.before);
    expect(entry.text.slice(offset, offset + 5)).toBe("false");
    let expected = entry.text;
    const completed = entry.completedStories;
    if (completed !== undefined) {
      const completedOffset = offsetAfter(entry.text, completed.before);
      expect(completedOffset).toBeGreaterThan(offset);
      expected = replaceAt(expected, completedOffset, completed.from.length, completed.to);
    }
    expected = replaceAt(expected, offset, 5, "true");

    const updated = updatePrd(entry.text, { passes: { [entry.id]: true } });

    expect(updated).toBe(expected);
    const before = parsePrd(entry.text);
    const after = parsePrd(updated);
    expect(after.stories.map((story) => story.passes)).toEqual(
      before.stories.map((story) => (story.id === entry.id ? true : story.passes)),
    );
    expect(after.stories.map((story) => story.extra)).toEqual(
      before.stories.map((story) => story.extra),
    );
    expect(after.extra).toEqual(before.extra);
  });

  it.each(corpus)("$name: setting it back to false restores the original", (entry) => {
    const updated = updatePrd(entry.text, { passes: { [entry.id]: true } });
    expect(updatePrd(updated, { passes: { [entry.id]: false } })).toBe(entry.text);
  });

  it.each(corpus)("$name: an edit that changes nothing returns the same string", (entry) => {
    const prd = parsePrd(entry.text);
    const same = Object.fromEntries(prd.stories.map((story) => [story.id, story.passes]));
    expect(updatePrd(entry.text, { passes: same })).toBe(entry.text);
    expect(updatePrd(entry.text, { passes: {} })).toBe(entry.text);
  });
});
