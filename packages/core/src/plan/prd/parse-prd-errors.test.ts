import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../errors/diagnostic.js";
import { lineColumnAt } from "../../errors/line-column.js";
import { parsePrd } from "./parse-prd.js";
import { PrdParseError } from "./prd-parse-error.js";

/** The error parsePrd throws for `text`. */
function parseError(text: string, file?: string): PrdParseError {
  try {
    parsePrd(text, { file });
  } catch (error) {
    if (PrdParseError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected parsePrd to throw");
}

/** The problems parsePrd reports for `text`. */
function problems(text: string): readonly Diagnostic[] {
  return parseError(text).issues;
}

/** The 1-based line and column of the `occurrence`-th (0-based) `needle` in `text`. */
function at(text: string, needle: string, occurrence = 0) {
  let offset = -1;
  for (let count = 0; count <= occurrence; count += 1) offset = text.indexOf(needle, offset + 1);
  if (offset < 0) throw new Error(`no ${needle} in the text`);
  return lineColumnAt(text, offset);
}

describe("parsePrd errors: invalid JSON", () => {
  const cases: readonly [string, string, string, number][] = [
    ["a trailing comma", '{\n  "stories": [],\n}', "trailing comma", 3],
    ["a missing comma", '{\n  "stories": []\n  "project": "x"\n}', "expected `,`", 3],
    ["an unterminated string", '{\n  "stories": [{"title": "abc', "unterminated string", 2],
    ["a comment", '{\n  // stories\n  "stories": []\n}', "comments are not allowed", 2],
    ["empty text", "", "unexpected end of the document", 1],
    ["a bare word", '{"stories": [{"passes": tru}]}', 'unexpected "tru"', 1],
    ["content after the document", '{"stories": []}\n}', "after the end", 2],
  ];
  it.each(cases)("reports %s with line:column", (_name, text, message, line) => {
    const error = parseError(text, "prd.json");
    expect(error.code).toBe("PRD_PARSE_ERROR");
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.message).toContain(message);
    expect(error.issues[0]?.line).toBe(line);
    expect(error.message).toMatch(
      new RegExp(`^Invalid prd\\.json \\(1 problem\\):\\n  prd\\.json:${line}:\\d+ `),
    );
    expect(error.message).not.toMatch(/ at .*\.(js|ts):\d+/);
  });

  it("points at the exact column of a trailing comma's closing bracket", () => {
    const text = '{"stories": [{"title": "a"},]}';
    expect(problems(text)[0]).toMatchObject({ ...at(text, "]"), path: [] });
  });

  it("reports an unescaped control character in a string", () => {
    const text = '{"stories": [{"title": "a\tb"}]}';
    expect(problems(text)[0]?.message).toContain("control character");
  });
});

describe("parsePrd errors: shape", () => {
  it("requires a stories or userStories array", () => {
    expect(problems('{"project": "x"}')).toEqual([
      {
        message: "missing the story array: expected a `stories` or `userStories` array",
        path: [],
        line: 1,
        column: 1,
      },
    ]);
  });

  it("rejects both stories and userStories, at the userStories key", () => {
    const text = '{\n  "stories": [],\n  "userStories": []\n}';
    expect(problems(text)).toEqual([
      {
        message: "both `stories` and `userStories` are given: keep one array of stories",
        path: ["userStories"],
        ...at(text, '"userStories"'),
      },
    ]);
  });

  it("rejects a top level that is not an object", () => {
    expect(problems("[1, 2]")[0]).toMatchObject({
      message: "must be a JSON object with a `stories` or `userStories` array, got an array",
      line: 1,
      column: 1,
    });
  });

  it("rejects a story array that is not an array", () => {
    const text = '{"userStories": {"id": 1}}';
    expect(problems(text)).toEqual([
      {
        message: "must be an array of stories, got an object",
        path: ["userStories"],
        ...at(text, "{", 1),
      },
    ]);
  });

  it("lists every problem of every story, each with its path and line:column", () => {
    const text = [
      "{",
      '  "userStories": [',
      '    { "id": "US-001", "title": "One", "passes": false },',
      '    { "id": "US-002", "title": "   ", "passes": "yes", "priority": "high" },',
      '    "not a story",',
      '    { "id": "US-004", "passes": 1 },',
      '    { "id": 4.5, "title": "Five", "acceptanceCriteria": ["ok", 3], "notes": 7 }',
      "  ],",
      '  "completedStories": -1',
      "}",
    ].join("\n");
    expect(problems(text)).toEqual([
      {
        message: "must not be empty: every story needs a title",
        path: ["userStories", 1, "title"],
        ...at(text, '"   "'),
      },
      {
        message: 'must be true or false, got the string "yes"',
        path: ["userStories", 1, "passes"],
        ...at(text, '"yes"'),
      },
      {
        message: 'must be a number, got the string "high"',
        path: ["userStories", 1, "priority"],
        ...at(text, '"high"'),
      },
      {
        message: 'must be a story object, got the string "not a story"',
        path: ["userStories", 2],
        ...at(text, '"not a story"'),
      },
      {
        message: "missing: every story needs a non-empty `title`",
        path: ["userStories", 3, "title"],
        ...at(text, '{ "id": "US-004"'),
      },
      {
        message: "must be true or false, got the number 1",
        path: ["userStories", 3, "passes"],
        ...at(text, "1 }"),
      },
      {
        message: "must be a story id (a string or an integer), got the number 4.5",
        path: ["userStories", 4, "id"],
        ...at(text, "4.5"),
      },
      {
        message: "must be a string, got the number 3",
        path: ["userStories", 4, "acceptanceCriteria", 1],
        ...at(text, "3]"),
      },
      {
        message: "must be a string, got the number 7",
        path: ["userStories", 4, "notes"],
        ...at(text, "7 }"),
      },
      {
        message: "must not be negative",
        path: ["completedStories"],
        ...at(text, "-1"),
      },
    ]);
  });

  it("formats the message as file:line:column path: message, one line per problem", () => {
    const text = '{\n  "stories": [\n    { "id": "A", "title": "a", "passes": "no" }\n  ]\n}';
    expect(parseError(text, "prd.json").message).toBe(
      'Invalid prd.json (1 problem):\n  prd.json:3:42 stories[0].passes: must be true or false, got the string "no"',
    );
  });

  it("rejects a field given under two alias spellings", () => {
    const text = '{"stories": [{"id": "A", "title": "a", "dependsOn": [], "depends_on": []}]}';
    expect(problems(text)).toEqual([
      {
        message: "`depends_on` and `dependsOn` are two spellings of the same field: keep one",
        path: ["stories", 0, "depends_on"],
        ...at(text, '"depends_on"'),
      },
    ]);
  });

  it("rejects a key repeated in a story object, naming both places", () => {
    const text = '{"stories": [{"id": "A", "title": "a", "passes": false, "passes": true}]}';
    expect(problems(text)).toEqual([
      {
        message: `duplicate key \`passes\` (first at 1:${at(text, '"passes"').column}): keep one`,
        path: ["stories", 0, "passes"],
        ...at(text, '"passes"', 1),
      },
    ]);
  });

  it("never exposes zod's own wording", () => {
    const text = '{"stories": [{"id": {}, "title": [], "dependencies": {}, "verify": 1}]}';
    for (const problem of problems(text)) {
      expect(problem.message).not.toMatch(/Invalid input|expected .*, received/);
    }
    expect(problems(text)).toHaveLength(4);
  });
});

describe("parsePrd errors: ids and dependencies", () => {
  it("reports a duplicate id at the second story, naming the first's location", () => {
    const text =
      '{\n  "stories": [\n    { "id": "A", "title": "a" },\n    { "id": "A", "title": "b" }\n  ]\n}';
    expect(problems(text)).toEqual([
      {
        message: "duplicate story id `A`; also used by stories[0].id (3:13)",
        path: ["stories", 1, "id"],
        ...at(text, '"A"', 1),
      },
    ]);
  });

  it("treats the integer 1 and the string 1 as the same id", () => {
    const text = '{"stories": [{"id": 1, "title": "a"}, {"id": "1", "title": "b"}]}';
    expect(problems(text)[0]?.message).toBe(
      "duplicate story id `1`; also used by stories[0].id (1:21)",
    );
  });

  it("reports a derived id that collides with a given one", () => {
    const text = '{"stories": [{"id": "STORY-2", "title": "a"}, {"title": "b"}]}';
    expect(problems(text)).toEqual([
      {
        message:
          "duplicate story id `STORY-2` (derived: the story has no `id`); also used by stories[0].id (1:21)",
        path: ["stories", 1],
        ...at(text, '{"title"'),
      },
    ]);
  });

  it("reports a dependency on an unknown id with the nearest id", () => {
    const text =
      '{"userStories": [{"id": "US-001", "title": "a"}, {"id": "US-002", "title": "b", "dependsOn": ["US-01"]}]}';
    expect(problems(text)).toEqual([
      {
        message: "depends on unknown story `US-01`; did you mean `US-001`?",
        path: ["userStories", 1, "dependsOn", 0],
        ...at(text, '"US-01"'),
      },
    ]);
  });

  it("reports a self-dependency", () => {
    const text = '{"stories": [{"id": "A", "title": "a", "dependencies": "A"}]}';
    expect(problems(text)).toEqual([
      {
        message: "story `A` depends on itself",
        path: ["stories", 0, "dependencies"],
        ...at(text, '"A"', 1),
      },
    ]);
  });

  it("names a dependency cycle, at the first story's dependency on the next", () => {
    const text = [
      '{"stories": [',
      '  {"id": "A", "title": "a", "dependencies": ["C"]},',
      '  {"id": "B", "title": "b", "dependencies": ["A"]},',
      '  {"id": "C", "title": "c", "dependencies": ["B"]},',
      '  {"id": "D", "title": "d", "dependencies": ["A"]}',
      "]}",
    ].join("\n");
    expect(problems(text)).toEqual([
      {
        message: "dependency cycle: `A` -> `C` -> `B` -> `A`",
        path: ["stories", 0, "dependencies", 0],
        ...at(text, '"C"'),
      },
    ]);
  });

  it("reports each separate cycle once", () => {
    const text = JSON.stringify({
      stories: [
        { id: "A", title: "a", dependencies: ["B"] },
        { id: "B", title: "b", dependencies: ["A"] },
        { id: 3, title: "c", dependencies: [4] },
        { id: 4, title: "d", dependencies: [3] },
      ],
    });
    expect(problems(text).map((problem) => problem.message)).toEqual([
      "dependency cycle: `A` -> `B` -> `A`",
      "dependency cycle: `3` -> `4` -> `3`",
    ]);
  });

  it("does not call a dependency unknown when it names a story with other problems", () => {
    const text =
      '{"stories": [{"id": "A", "title": ""}, {"id": "B", "title": "b", "dependencies": ["A"]}]}';
    expect(problems(text).map((problem) => problem.path)).toEqual([["stories", 0, "title"]]);
  });

  it("checks the dependencies of a story that has other problems", () => {
    const text = JSON.stringify({
      stories: [
        {
          id: "A",
          title: "a",
          acceptanceCriteria: [],
          acceptance_criteria: [],
          dependencies: ["Q"],
        },
        { id: "B", passes: 0, dependencies: ["B"] },
      ],
    });
    expect(problems(text).map((problem) => [problem.path, problem.message])).toEqual([
      [
        ["stories", 0, "acceptance_criteria"],
        "`acceptance_criteria` and `acceptanceCriteria` are two spellings of the same field: keep one",
      ],
      [["stories", 0, "dependencies", 0], "depends on unknown story `Q`; did you mean `B`?"],
      [["stories", 1, "title"], "missing: every story needs a non-empty `title`"],
      [["stories", 1, "passes"], "must be true or false, got the number 0"],
      [["stories", 1, "dependencies", 0], "story `B` depends on itself"],
    ]);
  });

  it("reports shape, id and dependency problems together", () => {
    const text = JSON.stringify({
      stories: [
        { id: "A", title: "a", passes: "no" },
        { id: "A", title: "b" },
        { id: "C", title: "c", dependencies: ["Z"] },
      ],
    });
    expect(problems(text).map((problem) => problem.path)).toEqual([
      ["stories", 0, "passes"],
      ["stories", 1, "id"],
      ["stories", 2, "dependencies", 0],
    ]);
  });
});

describe("parsePrd errors: hostile input", () => {
  it("refuses nesting deeper than 256 levels instead of overflowing the stack", () => {
    const text = `{"stories": [], "x": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(problems(text)).toEqual([
      {
        message: "objects and arrays nest deeper than 256 levels",
        path: [],
        line: 1,
        column: 21 + 256,
      },
    ]);
  });

  it("counts the brackets outside strings only", () => {
    const nested = `${"[".repeat(255)}${"]".repeat(255)}`;
    const text = `{"stories": [{"id": "A", "title": "[[[[{{{{", "x": ${nested}}]}`;
    expect(() => parsePrd(text)).toThrow(/nest deeper/);
    const shallower = `{"stories": [{"id": "A", "title": "[[[[\\"{{{{", "x": ${"[".repeat(250)}${"]".repeat(250)}}]}`;
    expect(parsePrd(shallower).stories[0]?.title).toBe('[[[["{{{{');
  });
});
