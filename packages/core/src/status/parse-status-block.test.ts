import { describe, expect, it } from "vitest";
import { parseStatusBlock } from "./parse-status-block.js";
import type { StatusBlock } from "./status-block.js";

const FULL_BLOCK = `Implemented the tokenizer.

---RALPH_STATUS---
STATUS: IN_PROGRESS
TASKS_COMPLETED_THIS_LOOP: 2
FILES_MODIFIED: 5
TESTS_STATUS: PASSING
WORK_TYPE: IMPLEMENTATION
EXIT_SIGNAL: false
RECOMMENDATION: Continue with TASK-004, the parser
---END_RALPH_STATUS---
`;

/** A block around the given field lines. */
function block(...lines: string[]): string {
  return ["---RALPH_STATUS---", ...lines, "---END_RALPH_STATUS---"].join("\n");
}

describe("parseStatusBlock: fields", () => {
  const parsed = parseStatusBlock(FULL_BLOCK);

  it.each<[keyof StatusBlock, unknown]>([
    ["status", "IN_PROGRESS"],
    ["tasksCompletedThisLoop", 2],
    ["filesModified", 5],
    ["testsStatus", "PASSING"],
    ["workType", "IMPLEMENTATION"],
    ["exitSignal", false],
    ["recommendation", "Continue with TASK-004, the parser"],
    ["line", 3],
    ["endLine", 11],
    ["problems", []],
  ])("reads %s", (property, expected) => {
    expect(parsed?.[property]).toEqual(expected);
  });

  it("keeps every field as written", () => {
    expect(parsed?.fields).toEqual({
      STATUS: "IN_PROGRESS",
      TASKS_COMPLETED_THIS_LOOP: "2",
      FILES_MODIFIED: "5",
      TESTS_STATUS: "PASSING",
      WORK_TYPE: "IMPLEMENTATION",
      EXIT_SIGNAL: "false",
      RECOMMENDATION: "Continue with TASK-004, the parser",
    });
  });

  it.each([
    ["STATUS: COMPLETE", { status: "COMPLETE" }],
    ["STATUS: BLOCKED", { status: "BLOCKED" }],
    ["TESTS_STATUS: FAILING", { testsStatus: "FAILING" }],
    ["TESTS_STATUS: NOT_RUN", { testsStatus: "NOT_RUN" }],
    ["WORK_TYPE: TESTING", { workType: "TESTING" }],
    ["WORK_TYPE: DOCUMENTATION", { workType: "DOCUMENTATION" }],
    ["WORK_TYPE: REFACTORING", { workType: "REFACTORING" }],
    ["EXIT_SIGNAL: true", { exitSignal: true }],
    ["TASKS_COMPLETED_THIS_LOOP: 0", { tasksCompletedThisLoop: 0 }],
    ["FILES_MODIFIED: 12 (src/a.ts and 11 more)", { filesModified: 12 }],
  ])("reads `%s`", (line, expected) => {
    expect(parseStatusBlock(block(line))).toMatchObject({ ...expected, problems: [] });
  });

  it("leaves absent fields null", () => {
    expect(parseStatusBlock(block("STATUS: COMPLETE"))).toMatchObject({
      tasksCompletedThisLoop: null,
      filesModified: null,
      testsStatus: null,
      workType: null,
      exitSignal: null,
      recommendation: null,
      problems: [],
    });
  });

  it("keeps unknown keys in fields without complaint", () => {
    const parsed = parseStatusBlock(block("STATUS: COMPLETE", "Notes: refactored the lexer"));
    expect(parsed?.fields).toEqual({ STATUS: "COMPLETE", Notes: "refactored the lexer" });
    expect(parsed?.problems).toEqual([]);
  });
});

describe("parseStatusBlock: tolerance", () => {
  it.each([
    ["lower-case keys and values", block("status: complete", "exit_signal: TRUE")],
    ["spacing", block("  STATUS :   COMPLETE  ", "EXIT_SIGNAL:true")],
    ["bold keys", block("**STATUS:** COMPLETE", "**EXIT_SIGNAL**: true")],
    ["bold values", block("STATUS: **COMPLETE**", "EXIT_SIGNAL: __true__")],
    ["backticks", block("`STATUS: COMPLETE`", "EXIT_SIGNAL: `true`")],
    ["emphasis", block("_STATUS_: _COMPLETE_", "*EXIT_SIGNAL*: *true*")],
    ["list bullets", block("- STATUS: COMPLETE", "* **EXIT_SIGNAL:** true")],
    ["numbered items", block("1. STATUS: COMPLETE", "2) EXIT_SIGNAL: true")],
    ["spaces in keys", block("Status: Complete", "Exit signal: true")],
    [
      "a code fence",
      `Done with this task.\n\n\`\`\`\n${block("STATUS: COMPLETE", "EXIT_SIGNAL: true")}\n\`\`\``,
    ],
    [
      "a fence inside the markers",
      "---RALPH_STATUS---\n```yaml\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n```\n---END_RALPH_STATUS---",
    ],
    [
      "markup around the markers",
      "**---RALPH_STATUS---**\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n`---END_RALPH_STATUS---`",
    ],
    [
      "spaced and lower-case markers",
      "--- ralph status ---\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n--- end ralph_status ---",
    ],
    [
      "escaped underscores in markers",
      "---RALPH\\_STATUS---\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n---END\\_RALPH\\_STATUS---",
    ],
    ["CRLF line endings", block("STATUS: COMPLETE", "EXIT_SIGNAL: true").replace(/\n/g, "\r\n")],
  ])("accepts %s", (_label, text) => {
    expect(parseStatusBlock(text)).toMatchObject({
      status: "COMPLETE",
      exitSignal: true,
      problems: [],
    });
  });

  it.each([
    ["in progress", "IN_PROGRESS"],
    ["In-Progress", "IN_PROGRESS"],
    ["COMPLETE.", "COMPLETE"],
    ['"BLOCKED"', "BLOCKED"],
  ])("reads the STATUS value %j as %s", (value, expected) => {
    expect(parseStatusBlock(block(`STATUS: ${value}`))?.status).toBe(expected);
  });

  it("reads tests status and work type with spaces", () => {
    expect(parseStatusBlock(block("TESTS_STATUS: not run", "WORK_TYPE: testing"))).toMatchObject({
      testsStatus: "NOT_RUN",
      workType: "TESTING",
    });
  });

  it("keeps markup inside a recommendation", () => {
    expect(
      parseStatusBlock(block("RECOMMENDATION: **Rename `__init__` helpers next**"))?.recommendation,
    ).toBe("Rename `__init__` helpers next");
  });
});

describe("parseStatusBlock: which block", () => {
  it("takes the last closed block", () => {
    const text = `${block("STATUS: BLOCKED", "EXIT_SIGNAL: true")}\nMore work.\n${block("STATUS: IN_PROGRESS", "EXIT_SIGNAL: false")}`;
    expect(parseStatusBlock(text)).toMatchObject({
      status: "IN_PROGRESS",
      exitSignal: false,
      line: 6,
    });
  });

  it("ignores an unclosed trailing block and falls back to the last closed one", () => {
    const text = `${block("STATUS: IN_PROGRESS")}\n\n---RALPH_STATUS---\nSTATUS: COMPLETE\nEXIT_SIGNAL: true\n`;
    expect(parseStatusBlock(text)).toMatchObject({ status: "IN_PROGRESS", exitSignal: null });
  });

  it("restarts at an opening marker inside an open block", () => {
    const text =
      "---RALPH_STATUS---\nSTATUS: BLOCKED\n---RALPH_STATUS---\nSTATUS: COMPLETE\n---END_RALPH_STATUS---";
    expect(parseStatusBlock(text)).toMatchObject({ status: "COMPLETE", line: 3 });
  });

  it.each([
    ["no block", "All done here."],
    ["only an unclosed block", "---RALPH_STATUS---\nSTATUS: COMPLETE\nEXIT_SIGNAL: true"],
    ["only a closing marker", "STATUS: COMPLETE\n---END_RALPH_STATUS---"],
    [
      "markers inside a sentence",
      "Print ---RALPH_STATUS--- then the fields and ---END_RALPH_STATUS---.",
    ],
    ["an empty text", ""],
    [
      "a block in a block quote",
      "> ---RALPH_STATUS---\n> STATUS: COMPLETE\n> ---END_RALPH_STATUS---",
    ],
  ])("returns null for %s", (_label, text) => {
    expect(parseStatusBlock(text)).toBeNull();
  });

  it("reads an empty block as all nulls", () => {
    expect(parseStatusBlock(block())).toMatchObject({ status: null, fields: {}, problems: [] });
  });
});

describe("parseStatusBlock: problems", () => {
  it.each([
    ["STATUS: DONE", "status", 'STATUS is "DONE": expected one of IN_PROGRESS, COMPLETE, BLOCKED'],
    [
      "STATUS: COMPLET",
      "status",
      'STATUS is "COMPLET": expected one of IN_PROGRESS, COMPLETE, BLOCKED; did you mean COMPLETE?',
    ],
    [
      "TASKS_COMPLETED_THIS_LOOP: -1",
      "tasksCompletedThisLoop",
      'TASKS_COMPLETED_THIS_LOOP is "-1": expected a whole number, 0 or more',
    ],
    [
      "FILES_MODIFIED: three",
      "filesModified",
      'FILES_MODIFIED is "three": expected a whole number, 0 or more',
    ],
    [
      "FILES_MODIFIED: 2.5",
      "filesModified",
      'FILES_MODIFIED is "2.5": expected a whole number, 0 or more',
    ],
    [
      "TESTS_STATUS: PASS",
      "testsStatus",
      'TESTS_STATUS is "PASS": expected one of PASSING, FAILING, NOT_RUN',
    ],
    [
      "WORK_TYPE: CODING",
      "workType",
      'WORK_TYPE is "CODING": expected one of IMPLEMENTATION, TESTING, DOCUMENTATION, REFACTORING',
    ],
    ["EXIT_SIGNAL: yes", "exitSignal", 'EXIT_SIGNAL is "yes": expected true or false'],
    [
      "EXIT_SIGNAL: false | true",
      "exitSignal",
      'EXIT_SIGNAL is "false | true": expected true or false',
    ],
  ])("reports `%s` at the value, leaving the field null", (line, property, message) => {
    const parsed = parseStatusBlock(`Intro line.\n${block(`- ${line}`)}`);
    const valueColumn = "- ".length + line.indexOf(":") + ": ".length + 1;
    expect(parsed?.[property as keyof StatusBlock]).toBeNull();
    expect(parsed?.problems).toEqual([
      { message, line: 3, column: valueColumn, path: [line.slice(0, line.indexOf(":"))] },
    ]);
  });

  it("reports a field with no value", () => {
    expect(parseStatusBlock(block("STATUS:"))?.problems).toEqual([
      { message: "STATUS has no value", line: 2, column: 8, path: ["STATUS"] },
    ]);
  });

  it("reports a misspelled key and keeps it in fields", () => {
    const parsed = parseStatusBlock(block("EXIT_SIGNL: true"));
    expect(parsed?.exitSignal).toBeNull();
    expect(parsed?.fields).toEqual({ EXIT_SIGNL: "true" });
    expect(parsed?.problems).toEqual([
      {
        message: "unknown field EXIT_SIGNL; did you mean EXIT_SIGNAL?",
        line: 2,
        column: 1,
        path: ["EXIT_SIGNL"],
      },
    ]);
  });

  it("reports a repeated field and uses its last value", () => {
    const parsed = parseStatusBlock(block("EXIT_SIGNAL: true", "EXIT_SIGNAL: maybe"));
    expect(parsed?.exitSignal).toBeNull();
    expect(parsed?.fields.EXIT_SIGNAL).toBe("maybe");
    expect(parsed?.problems.map((problem) => problem.message)).toEqual([
      "EXIT_SIGNAL appears more than once; the last value is used",
      'EXIT_SIGNAL is "maybe": expected true or false',
    ]);
  });

  it("reports a line that is not a field", () => {
    expect(parseStatusBlock(block("STATUS: COMPLETE", "  all good here"))?.problems).toEqual([
      { message: "expected a `KEY: value` field line", line: 3, column: 3 },
    ]);
  });

  it("reads the echoed template as malformed, never as a status", () => {
    const template = block(
      "STATUS: IN_PROGRESS | COMPLETE | BLOCKED",
      "TASKS_COMPLETED_THIS_LOOP: <number>",
      "FILES_MODIFIED: <number>",
      "TESTS_STATUS: PASSING | FAILING | NOT_RUN",
      "WORK_TYPE: IMPLEMENTATION | TESTING | DOCUMENTATION | REFACTORING",
      "EXIT_SIGNAL: false | true",
      "RECOMMENDATION: <one line summary of what to do next>",
    );
    const parsed = parseStatusBlock(template);
    expect(parsed).toMatchObject({
      status: null,
      tasksCompletedThisLoop: null,
      filesModified: null,
      testsStatus: null,
      workType: null,
      exitSignal: null,
    });
    expect(parsed?.problems).toHaveLength(6);
  });
});

describe("parseStatusBlock: the YAML form", () => {
  it("reads `RALPH_STATUS:` and the indented fields under it", () => {
    const parsed = parseStatusBlock(
      "Wired the CLI.\n\nRALPH_STATUS:\n  STATUS: COMPLETE\n  TASKS_COMPLETED_THIS_LOOP: 1\n  EXIT_SIGNAL: true\n",
    );
    expect(parsed).toMatchObject({
      status: "COMPLETE",
      tasksCompletedThisLoop: 1,
      exitSignal: true,
      fields: { STATUS: "COMPLETE", TASKS_COMPLETED_THIS_LOOP: "1", EXIT_SIGNAL: "true" },
      problems: [],
      line: 3,
      endLine: 6,
    });
  });

  it("reads unindented fields up to a blank line", () => {
    const parsed = parseStatusBlock(
      "RALPH_STATUS:\nSTATUS: IN_PROGRESS\nEXIT_SIGNAL: false\n\nSTATUS: COMPLETE\nEXIT_SIGNAL: true",
    );
    expect(parsed).toMatchObject({
      status: "IN_PROGRESS",
      exitSignal: false,
      line: 1,
      endLine: 3,
    });
    expect(Object.keys(parsed?.fields ?? {})).toEqual(["STATUS", "EXIT_SIGNAL"]);
  });

  it("reads it in a yaml fence, up to the closing fence", () => {
    const parsed = parseStatusBlock(
      "Done.\n\n```yaml\nRALPH_STATUS:\n  STATUS: COMPLETE\n  EXIT_SIGNAL: true\n```\nThanks.",
    );
    expect(parsed).toMatchObject({
      status: "COMPLETE",
      exitSignal: true,
      problems: [],
      line: 4,
      endLine: 6,
    });
  });

  it.each([
    ["lower case", "ralph_status:\n  status: complete\n  exit_signal: true"],
    ["bold", "**RALPH_STATUS:**\n- **STATUS:** COMPLETE\n- EXIT_SIGNAL: true"],
    ["backticks and a bullet", "- `RALPH_STATUS:`\n  - STATUS: COMPLETE\n  - EXIT_SIGNAL: true"],
    ["CRLF line endings", "RALPH_STATUS:\r\n  STATUS: COMPLETE\r\n  EXIT_SIGNAL: true\r\n"],
  ])("accepts %s", (_label, text) => {
    expect(parseStatusBlock(text)).toMatchObject({
      status: "COMPLETE",
      exitSignal: true,
      problems: [],
    });
  });

  it("reports malformed values and lines at their place, as the marker form does", () => {
    expect(
      parseStatusBlock("Intro.\nRALPH_STATUS:\n  EXIT_SIGNAL: yes\n  all good here")?.problems,
    ).toEqual([
      {
        message: 'EXIT_SIGNAL is "yes": expected true or false',
        line: 3,
        column: 16,
        path: ["EXIT_SIGNAL"],
      },
      { message: "expected a `KEY: value` field line", line: 4, column: 3 },
    ]);
  });

  it.each([
    ["a line followed by a blank line", "I print this line:\nRALPH_STATUS:\n\nSTATUS: COMPLETE"],
    ["a line followed by a sentence", "Some text.\nRALPH_STATUS:\nMore prose follows here.\n"],
    ["a line at the end", "The block starts with\nRALPH_STATUS:"],
    ["only unknown keys", "RALPH_STATUS:\nNote: refactored the lexer"],
    ["a heading", "## RALPH_STATUS:\n- EXIT_SIGNAL: true"],
    ["a block quote", "> RALPH_STATUS:\n> STATUS: COMPLETE\n> EXIT_SIGNAL: true"],
    ["the marker text in a sentence", "Write RALPH_STATUS: then the fields.\nSTATUS: COMPLETE"],
    ["a value on the same line", "RALPH_STATUS: COMPLETE\nEXIT_SIGNAL: true"],
  ])("returns null for %s", (_label, text) => {
    expect(parseStatusBlock(text)).toBeNull();
  });

  it("takes the last closed block of either form", () => {
    const yamlLast = `${block("STATUS: BLOCKED")}\n\nRALPH_STATUS:\nSTATUS: IN_PROGRESS`;
    expect(parseStatusBlock(yamlLast)).toMatchObject({ status: "IN_PROGRESS", line: 5 });
    const markersLast = `RALPH_STATUS:\nSTATUS: IN_PROGRESS\n\n${block("STATUS: BLOCKED")}`;
    expect(parseStatusBlock(markersLast)).toMatchObject({ status: "BLOCKED", line: 4 });
  });

  it("does not open a YAML-form block inside a marker block", () => {
    const parsed = parseStatusBlock(block("RALPH_STATUS:", "STATUS: COMPLETE"));
    expect(parsed).toMatchObject({ status: "COMPLETE", line: 1, endLine: 4 });
  });
});
