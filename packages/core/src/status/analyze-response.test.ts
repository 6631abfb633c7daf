import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeResponse } from "./analyze-response.js";

/** A status block with the given field lines. */
function statusBlock(...lines: string[]): string {
  return ["---RALPH_STATUS---", ...lines, "---END_RALPH_STATUS---"].join("\n");
}

const REALISTIC_IN_PROGRESS = `I picked up **TASK-003: Add the tokenizer** from the plan.

## What I changed

- Added \`src/tokenizer.ts\` with a \`tokenize()\` function for identifiers, numbers and strings.
- Updated \`src/parser.ts\` to consume tokens instead of raw characters.
- Marked TASK-003 as done in \`@fix_plan.md\`.

## Verification

\`\`\`
$ npm test
 PASS  src/tokenizer.test.ts (12 tests)
 Tests: 12 passed, 12 total
\`\`\`

Done with the tokenizer; TASK-004 (error recovery) is next. Not all tasks are complete yet, so the loop should continue.

${statusBlock(
  "STATUS: IN_PROGRESS",
  "TASKS_COMPLETED_THIS_LOOP: 1",
  "FILES_MODIFIED: 3",
  "TESTS_STATUS: PASSING",
  "WORK_TYPE: IMPLEMENTATION",
  "EXIT_SIGNAL: false",
  "RECOMMENDATION: Continue with TASK-004; all tasks are complete after that",
)}
`;

const ECHOED_PROMPT = `# Instructions

You are working through @fix_plan.md. Pick the highest-priority open task, implement it, and run the tests.

When all tasks are complete, output <promise>DONE</promise>. Do not output it before then.

If you need human input, say so. Nothing is complete until the tests pass.

At the end of every answer, include this block:

${statusBlock(
  "STATUS: IN_PROGRESS | COMPLETE | BLOCKED",
  "TASKS_COMPLETED_THIS_LOOP: <number>",
  "FILES_MODIFIED: <number>",
  "TESTS_STATUS: PASSING | FAILING | NOT_RUN",
  "WORK_TYPE: IMPLEMENTATION | TESTING | DOCUMENTATION | REFACTORING",
  "EXIT_SIGNAL: false | true",
  "RECOMMENDATION: <one line summary of what to do next>",
)}

Set EXIT_SIGNAL to true only when the project is complete.

---

I implemented TASK-002 (config loading) and added tests for it. TASK-003 and TASK-004 are still open.
`;

describe("analyzeResponse: a realistic answer", () => {
  it("reads a multi-paragraph answer ending in a correct status block", () => {
    const signals = analyzeResponse(REALISTIC_IN_PROGRESS);
    expect(signals.statusBlock).toMatchObject({
      status: "IN_PROGRESS",
      tasksCompletedThisLoop: 1,
      filesModified: 3,
      testsStatus: "PASSING",
      workType: "IMPLEMENTATION",
      exitSignal: false,
      recommendation: "Continue with TASK-004; all tasks are complete after that",
      problems: [],
    });
    expect(signals).toMatchObject({
      exitSignal: { value: false, source: "status_block" },
      doneSignal: false,
      testOnly: false,
      completionPhrases: [],
      completionIndicatorCount: 0,
      blocked: false,
      questions: [],
      askingQuestions: false,
      errorFingerprint: null,
      errorSummary: null,
      permissionDenials: [],
      promiseTag: null,
      contradictions: [],
    });
  });

  it("reads a final answer that completes the project", () => {
    const signals = analyzeResponse(
      `TASK-007 was the last open task: I wired the CLI to the parser.\n\nAll tasks in the plan are now complete and the full test suite passes.\n\n${statusBlock(
        "STATUS: COMPLETE",
        "TASKS_COMPLETED_THIS_LOOP: 1",
        "FILES_MODIFIED: 2",
        "TESTS_STATUS: PASSING",
        "WORK_TYPE: IMPLEMENTATION",
        "EXIT_SIGNAL: true",
        "RECOMMENDATION: Nothing left to do",
      )}`,
    );
    expect(signals).toMatchObject({
      exitSignal: { value: true, source: "status_block" },
      doneSignal: true,
      completionPhrases: ["All tasks in the plan are now complete"],
      completionIndicatorCount: 1,
      contradictions: [],
    });
  });

  it("does not take an echoed prompt's template and promise instruction for completion", () => {
    const signals = analyzeResponse(ECHOED_PROMPT, { completionPromise: "DONE" });
    expect(signals.statusBlock?.status).toBeNull();
    expect(signals.statusBlock?.problems.length).toBeGreaterThan(0);
    expect(signals).toMatchObject({
      exitSignal: null,
      doneSignal: false,
      completionPhrases: [],
      blocked: false,
      questions: [],
      promiseTag: null,
      testOnly: false,
    });
  });

  it("lets the real answer's block win over the echoed template", () => {
    const text = `${ECHOED_PROMPT}\n${statusBlock("STATUS: IN_PROGRESS", "EXIT_SIGNAL: false", "WORK_TYPE: IMPLEMENTATION")}`;
    const signals = analyzeResponse(text, { completionPromise: "DONE" });
    expect(signals.statusBlock).toMatchObject({ status: "IN_PROGRESS", problems: [] });
    expect(signals.exitSignal).toEqual({ value: false, source: "status_block" });
    expect(signals.doneSignal).toBe(false);
  });
});

describe("analyzeResponse: EXIT_SIGNAL: false beats everything", () => {
  it("beats completion phrases, a kept promise and STATUS: COMPLETE", () => {
    const signals = analyzeResponse(
      `All tasks are complete. The project is complete.\n\n<promise>DONE</promise>\n\n${statusBlock("STATUS: COMPLETE", "EXIT_SIGNAL: false")}`,
      { completionPromise: "DONE" },
    );
    expect(signals.exitSignal).toEqual({ value: false, source: "status_block" });
    expect(signals.doneSignal).toBe(false);
    expect(signals.completionIndicatorCount).toBe(2);
    expect(signals.promiseTag).toBe("DONE");
    expect(signals.contradictions).toEqual([
      "STATUS: COMPLETE contradicts EXIT_SIGNAL: false; EXIT_SIGNAL wins",
      "the completion promise contradicts EXIT_SIGNAL: false; EXIT_SIGNAL wins",
      "completion statements in the prose are overruled by EXIT_SIGNAL: false",
    ]);
  });

  it.each([
    [
      "COMPLETE, EXIT_SIGNAL true",
      ["STATUS: COMPLETE", "EXIT_SIGNAL: true"],
      { value: true, source: "status_block" },
      true,
    ],
    [
      "EXIT_SIGNAL true alone",
      ["EXIT_SIGNAL: true"],
      { value: true, source: "status_block" },
      true,
    ],
    ["COMPLETE alone", ["STATUS: COMPLETE"], null, true],
    [
      "IN_PROGRESS, EXIT_SIGNAL true",
      ["STATUS: IN_PROGRESS", "EXIT_SIGNAL: true"],
      { value: false, source: "status_block" },
      false,
    ],
    [
      "BLOCKED, EXIT_SIGNAL true",
      ["STATUS: BLOCKED", "EXIT_SIGNAL: true"],
      { value: true, source: "status_block" },
      false,
    ],
    ["IN_PROGRESS alone", ["STATUS: IN_PROGRESS"], null, false],
    ["a malformed EXIT_SIGNAL", ["STATUS: IN_PROGRESS", "EXIT_SIGNAL: yes"], null, false],
  ])("settles %s", (_label, lines, exitSignal, doneSignal) => {
    const signals = analyzeResponse(`Worked on the parser.\n\n${statusBlock(...lines)}`);
    expect(signals.exitSignal).toEqual(exitSignal);
    expect(signals.doneSignal).toBe(doneSignal);
  });

  it("lets STATUS: IN_PROGRESS overrule a kept promise", () => {
    const signals = analyzeResponse(
      `<promise>DONE</promise>\n\n${statusBlock("STATUS: IN_PROGRESS")}`,
      { completionPromise: "DONE" },
    );
    expect(signals.exitSignal).toEqual({ value: false, source: "status_block" });
    expect(signals.contradictions).toEqual([
      "the completion promise contradicts STATUS: IN_PROGRESS; the loop goes on",
    ]);
  });

  it("lets STATUS: IN_PROGRESS overrule completion phrases", () => {
    const signals = analyzeResponse(
      `All tasks are complete.\n\n${statusBlock("STATUS: IN_PROGRESS")}`,
    );
    expect(signals.doneSignal).toBe(false);
    expect(signals.completionIndicatorCount).toBe(1);
  });

  it("gives no exit signal without a block or a promise", () => {
    expect(analyzeResponse("All tasks are complete.").exitSignal).toBeNull();
  });
});

describe("analyzeResponse: only prose counts", () => {
  const PHRASE = "All tasks are complete";

  it.each([
    ["a fenced code block", `Here is the log:\n\n\`\`\`\n${PHRASE}\n\`\`\``],
    ["an indented code block", `Here is the log:\n\n    ${PHRASE}`],
    ["inline code", `The script prints \`${PHRASE}\` at the end.`],
    ["a block quote", `The plan says:\n\n> ${PHRASE} when every box is checked.`],
    ["a shell transcript", `$ ./check-plan.sh\n${PHRASE}\nexit 0`],
    ["a tool result", `<tool_result>\n${PHRASE}\n</tool_result>\nReading on.`],
    ["function results", `<function_results>${PHRASE}</function_results>`],
    ["Claude Code tool output", `\u23fa Bash(./check-plan.sh)\n  \u23bf  ${PHRASE}\n     exit 0`],
    [
      "the RECOMMENDATION line",
      statusBlock("STATUS: IN_PROGRESS", `RECOMMENDATION: ${PHRASE} soon`),
    ],
    ["an unclosed status block", `Working.\n\n---RALPH_STATUS---\nRECOMMENDATION: ${PHRASE}`],
  ])("ignores a phrase in %s", (_label, text) => {
    const signals = analyzeResponse(text);
    expect(signals.completionPhrases).toEqual([]);
    expect(signals.doneSignal).toBe(false);
  });

  it.each([
    ["a paragraph", `${PHRASE}.`],
    ["a list item", `- ${PHRASE}.`],
    ["a heading", `## ${PHRASE}`],
    ["bold text", `**${PHRASE}.**`],
    ["a sentence after a code block", `\`\`\`\nnpm run build\n\`\`\`\n\n${PHRASE}.`],
  ])("counts a phrase in %s", (_label, text) => {
    const signals = analyzeResponse(text);
    expect(signals.completionPhrases).toEqual([PHRASE]);
    expect(signals.doneSignal).toBe(true);
  });
});

describe("analyzeResponse: completion phrases and the done signal", () => {
  it.each([
    "All tasks are complete.",
    "All 12 tasks in the plan have been completed.",
    "The project is complete.",
    "The entire plan is now fully implemented.",
    "Everything is done.",
    "Everything's finished!",
    "There is nothing left to do.",
    "No remaining tasks.",
    "There are no tasks left.",
    "I've completed all the tasks in the plan.",
    "Every task is checked off.",
    "All tasks complete",
    "Project complete.",
    "\u2705 All tasks complete!",
  ])("counts %j", (text) => {
    const signals = analyzeResponse(text);
    expect(signals.completionIndicatorCount).toBe(1);
    expect(signals.doneSignal).toBe(true);
  });

  it.each([
    "Done reading the file, now implementing the parser.",
    "Done.",
    "The tokenizer is complete.",
    "TASK-003 is done.",
    "I completed the migration step.",
    "All tests pass.",
  ])("does not take %j for the whole job being done", (text) => {
    const signals = analyzeResponse(text);
    expect(signals.completionPhrases).toEqual([]);
    expect(signals.doneSignal).toBe(false);
  });

  it.each([
    "The project is not complete.",
    "I am not done.",
    "The plan isn't finished yet.",
    "Nothing is complete until the tests pass.",
    "Not all tasks are complete.",
    "The project is incomplete.",
    "I can't say that all tasks are complete.",
    "Once all tasks are complete, I will write the release notes.",
    "When the project is complete, output DONE.",
    "Verify that all tasks are complete before stopping.",
    "The project is complete except for the docs.",
    "Everything is done, but the deploy script still fails.",
    "Are all tasks complete?",
    "All tasks will be complete after TASK-009.",
    "There are no remaining tasks for this story.",
  ])("ignores the negated, conditional or questioned %j", (text) => {
    const signals = analyzeResponse(text, {
      extraCompletionPhrases: ["done", "complete", "finished"],
    });
    expect(signals.completionPhrases).toEqual([]);
    expect(signals.doneSignal).toBe(false);
  });

  it("counts extra phrases the caller adds, as whole words", () => {
    const options = { extraCompletionPhrases: ["ready to ship"] };
    expect(analyzeResponse("The release is ready to ship.", options).completionPhrases).toEqual([
      "ready to ship",
    ]);
    expect(analyzeResponse("The release is ready to shipping.", options).completionPhrases).toEqual(
      [],
    );
  });

  it("counts each distinct statement once", () => {
    const signals = analyzeResponse(
      "All tasks are complete.\n\nEverything is done.\n\nAll tasks are complete.",
    );
    expect(signals.completionPhrases).toEqual(["All tasks are complete", "Everything is done"]);
    expect(signals.completionIndicatorCount).toBe(2);
  });

  it("counts overlapping built-in and extra phrases in one sentence once", () => {
    const signals = analyzeResponse("All tasks are complete.", {
      extraCompletionPhrases: ["complete"],
    });
    expect(signals.completionIndicatorCount).toBe(1);
  });
});

describe("analyzeResponse: completion statements without an article or an auxiliary", () => {
  it.each([
    ["Project is complete and ready for review.", "Project is complete"],
    ["All tasks completed successfully.", "All tasks completed successfully"],
    ["\u2705 All 5 stories done, tests green.", "All 5 stories done"],
    ["Summary: all tasks completed.", "all tasks completed"],
    ["Project finished.", "Project finished"],
  ])("counts %j", (text, phrase) => {
    const signals = analyzeResponse(text);
    expect(signals.completionPhrases).toEqual([phrase]);
    expect(signals.doneSignal).toBe(true);
  });

  it.each([
    "I listed all tasks completed this week in the notes.",
    "Not all tasks completed successfully.",
    "Are all tasks completed?",
    "Project is complete except for the docs.",
    "If project is complete, say so.",
    "All tasks completed for this story.",
    "The sub-project is complete.",
  ])("does not count %j", (text) => {
    const signals = analyzeResponse(text);
    expect(signals.completionPhrases).toEqual([]);
    expect(signals.doneSignal).toBe(false);
  });
});

describe("analyzeResponse: quoted records", () => {
  it.each([
    [
      "a changelog introduced by the paragraph before it",
      "I added the entry. Here is the CHANGELOG:\n\n- All tasks finished\n- Fixed the lexer",
    ],
    [
      "a changelog's release section",
      "Updated the changelog.\n\n## [1.2.0] - 2026-01-15\n\n### Added\n\n- All tasks finished",
    ],
    ["a commit list", "Recent commits:\n\n- Everything is done\n- Add the parser"],
    ["commit lines", "- a1b2c3d All tasks are complete\n- 9f8e7d6 Add the parser"],
    ["a commits section", "## Commits\n\n- All tasks are complete"],
    ["a nested changelog list", "- Changelog:\n  - All tasks finished"],
  ])("does not count a completion statement in %s", (_label, text) => {
    const signals = analyzeResponse(text);
    expect(signals.completionPhrases).toEqual([]);
    expect(signals.doneSignal).toBe(false);
  });

  it.each([
    [
      "a quoted changelog",
      "Here is the changelog:\n\n- All tasks finished\n\nAll tasks are finished.",
    ],
    [
      "a changelog section",
      "## [1.2.0] - 2026-01-15\n\n- All tasks finished\n\nAll tasks are finished.",
    ],
  ])("counts the agent's own paragraph after %s", (_label, text) => {
    const signals = analyzeResponse(text);
    expect(signals.completionPhrases).toEqual(["All tasks are finished"]);
    expect(signals.doneSignal).toBe(true);
  });

  it.each([
    ["a summary section", "## Summary\n\n- All tasks are complete."],
    ["a numbered section", "## 2.1 Parser\n\n- All tasks are complete."],
    ["a list after a plain intro", "What I did:\n\n- All tasks are complete."],
    [
      "a section after the changelog's",
      "## Changelog\n\n- Fixed the lexer\n\n## Result\n\n- All tasks are complete.",
    ],
    ["an item that starts with a number", "- 1234567 rows imported. All tasks are complete."],
  ])("counts a list item in %s", (_label, text) => {
    const signals = analyzeResponse(text);
    expect(signals.completionPhrases).toEqual(["All tasks are complete"]);
    expect(signals.doneSignal).toBe(true);
  });

  it("does not read questions or blocked statements in a commit list", () => {
    const signals = analyzeResponse(
      "Recent commits:\n\n- a1b2c3d Should I keep the old API?\n- 9f8e7d6 I am blocked on the API key",
    );
    expect(signals.questions).toEqual([]);
    expect(signals.blocked).toBe(false);
  });

  it("still sees implementation in a commit list", () => {
    const signals = analyzeResponse(
      "Ran `npm test`.\n\nRecent commits:\n\n- a1b2c3d Add the parser",
    );
    expect(signals.testOnly).toBe(false);
  });
});

describe("analyzeResponse: the promise tag", () => {
  const options = { completionPromise: "DONE" };

  it.each([
    ["alone on its line", "All tasks are finished.\n\n<promise>DONE</promise>\n\nThanks."],
    ["at the very end", "Every box in the plan is checked. <promise>DONE</promise>"],
    ["as a list item", "- <promise>DONE</promise>"],
    ["in bold", "**<promise>DONE</promise>**"],
    ["with spaces inside", "<promise>  DONE </promise>"],
    [
      "before the status block",
      `Finished.\n<promise>DONE</promise>\n\n${statusBlock("STATUS: COMPLETE")}`,
    ],
  ])("counts a promise %s", (_label, text) => {
    const signals = analyzeResponse(text, options);
    expect(signals.promiseTag).toBe("DONE");
    expect(signals.exitSignal?.value).toBe(true);
    expect(signals.doneSignal).toBe(true);
  });

  it("reports promise_tag as the source when the block gives no EXIT_SIGNAL", () => {
    expect(analyzeResponse("<promise>DONE</promise>", options).exitSignal).toEqual({
      value: true,
      source: "promise_tag",
    });
  });

  it.each([
    [
      "inside an instruction",
      "Output <promise>DONE</promise> when all tasks are finished. Now, TASK-002.",
    ],
    ["ending an instruction", "Work on the plan. When finished, output <promise>DONE</promise>"],
    [
      "introduced by an instruction",
      "When all tasks are finished, output:\n<promise>DONE</promise>\n\nStarting TASK-002.",
    ],
    ["in a code block", "```\n<promise>DONE</promise>\n```"],
    ["in inline code", "I will print `<promise>DONE</promise>` at the end."],
    ["in a block quote", "> <promise>DONE</promise>"],
    ["in a tool result", "<tool_result>\n<promise>DONE</promise>\n</tool_result>\nContinuing."],
  ])("ignores a promise tag %s", (_label, text) => {
    const signals = analyzeResponse(text, options);
    expect(signals.promiseTag).toBeNull();
    expect(signals.exitSignal).toBeNull();
    expect(signals.doneSignal).toBe(false);
  });

  it("reports a tag that does not match the completion promise, without an exit signal", () => {
    const signals = analyzeResponse("<promise>FINISHED</promise>", options);
    expect(signals.promiseTag).toBe("FINISHED");
    expect(signals.exitSignal).toBeNull();
  });

  it("compares the promise exactly, case included", () => {
    expect(analyzeResponse("<promise>done</promise>", options).exitSignal).toBeNull();
    expect(
      analyzeResponse("<promise>ALL   TASKS DONE</promise>", {
        completionPromise: " ALL TASKS DONE ",
      }).exitSignal?.value,
    ).toBe(true);
  });

  it("gives no exit signal without a completion promise", () => {
    const signals = analyzeResponse("<promise>DONE</promise>");
    expect(signals.promiseTag).toBe("DONE");
    expect(signals.exitSignal).toBeNull();
  });
});

describe("analyzeResponse: test-only runs", () => {
  it.each([
    ["WORK_TYPE: TESTING", `Re-ran the suite.\n\n${statusBlock("WORK_TYPE: TESTING")}`, true],
    [
      "WORK_TYPE: IMPLEMENTATION with tests run",
      `Ran \`npm test\` again.\n\n${statusBlock("WORK_TYPE: IMPLEMENTATION")}`,
      false,
    ],
    [
      "prose that only runs tests",
      "Ran `npm test`; all 42 tests pass. No files were changed.",
      true,
    ],
    [
      "a test transcript and nothing else",
      "```\n$ pytest -q\n42 passed in 0.3s\n```\n\nStill green.",
      true,
    ],
    ["tests run after implementing", "Implemented the parser and ran the test suite.", false],
    ["fixing after running the tests", "Ran the tests, then fixed the failing lexer case.", false],
    ["implementation without tests", "Updated the README.", false],
    ["neither", "Reading the plan.", false],
  ])("%s", (_label, text, expected) => {
    expect(analyzeResponse(text).testOnly).toBe(expected);
  });

  it("uses the prose when the block's WORK_TYPE is malformed", () => {
    const text = `Ran \`npm test\`; all green.\n\n${statusBlock("WORK_TYPE: CHECKING")}`;
    expect(analyzeResponse(text).testOnly).toBe(true);
  });
});

describe("analyzeResponse: blocked", () => {
  it.each([
    ["STATUS: BLOCKED", `Stopped.\n\n${statusBlock("STATUS: BLOCKED")}`],
    ["I am blocked", "I am blocked on the missing API key."],
    ["I'm stuck", "I'm stuck: the build needs a licence server."],
    ["cannot proceed", "I cannot proceed without the database credentials."],
    ["needs human input", "This task needs human input before it can go on."],
    ["human intervention required", "Human intervention is required to rotate the keys."],
  ])("is set by %s", (_label, text) => {
    expect(analyzeResponse(text).blocked).toBe(true);
  });

  it.each([
    ["a denial", "I'm not blocked; moving on to TASK-005."],
    ["a condition", "If you need human input, say so."],
    ["a question", "Am I blocked?"],
    ["a quote", "> I am blocked on the API key."],
    ["a dependency in the plan", "TASK-004 depends on TASK-003, which is now done."],
    ["STATUS: IN_PROGRESS", statusBlock("STATUS: IN_PROGRESS")],
  ])("is not set by %s", (_label, text) => {
    expect(analyzeResponse(text).blocked).toBe(false);
  });

  it("keeps the agent's blocking sentence as the reason, so a person can see what to fix", () => {
    const signals = analyzeResponse(
      `I wired the client.\n\nI cannot proceed without the database credentials.\n\n${statusBlock("STATUS: BLOCKED", "RECOMMENDATION: Add DATABASE_URL to .env")}`,
    );
    expect(signals.blockedReason).toBe("I cannot proceed without the database credentials.");
    expect(signals.statusBlock?.recommendation).toBe("Add DATABASE_URL to .env");
    expect(analyzeResponse(statusBlock("STATUS: BLOCKED")).blockedReason).toBeNull();
    expect(analyzeResponse("I'm not blocked; moving on.").blockedReason).toBeNull();
  });
});

describe("analyzeResponse: errors", () => {
  it("is null without an error", () => {
    const signals = analyzeResponse(REALISTIC_IN_PROGRESS);
    expect(signals.errorFingerprint).toBeNull();
    expect(signals.errorSummary).toBeNull();
  });

  it("reads the error the answer ends on", () => {
    const signals = analyzeResponse(
      "The build still fails:\n\n```\nsrc/a.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n```",
    );
    expect(signals.errorFingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(signals.errorSummary).toBe(
      "src/a.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
    );
  });

  it("does not read errors inside the status block", () => {
    const text = statusBlock("STATUS: IN_PROGRESS", "RECOMMENDATION: Error: fix the parser next");
    expect(analyzeResponse(text).errorFingerprint).toBeNull();
  });

  it.each([
    [
      "git's fatal line in code",
      "```\nfatal: not a git repository\n```",
      "fatal: not a git repository",
    ],
    ["a Fatal line in prose", "Fatal: not a git repository", "Fatal: not a git repository"],
    [
      "a linker's line",
      "The bundle does not link:\n\nLink: error: undefined symbol _main",
      "Link: error: undefined symbol _main",
    ],
  ])("reads %s as the error", (_label, text, summary) => {
    const signals = analyzeResponse(text);
    expect(signals.errorFingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(signals.errorSummary).toBe(summary);
  });

  it.each([
    "That was a fatal mistake in the lexer.",
    "Fatal errors now stop the build.",
    "The link error is fixed.",
  ])("does not take %j for an error line", (text) => {
    expect(analyzeResponse(text).errorFingerprint).toBeNull();
  });

  it("does not take prose that mentions an error type for an error line", () => {
    expect(
      analyzeResponse("TypeError handling is now covered by tests.").errorFingerprint,
    ).toBeNull();
    expect(
      analyzeResponse("```\nTypeError Cannot read properties of undefined\n```").errorFingerprint,
    ).not.toBeNull();
  });
});

describe("analyzeResponse: the YAML form of the status block", () => {
  it("reads it like the marker form, EXIT_SIGNAL: false beating the prose", () => {
    const signals = analyzeResponse(
      "All tasks are complete.\n\nRALPH_STATUS:\n  STATUS: COMPLETE\n  EXIT_SIGNAL: false\n",
    );
    expect(signals.statusBlock).toMatchObject({ status: "COMPLETE", exitSignal: false, line: 3 });
    expect(signals.exitSignal).toEqual({ value: false, source: "status_block" });
    expect(signals.doneSignal).toBe(false);
  });

  it("reads it in a yaml fence", () => {
    const signals = analyzeResponse(
      "Wired the CLI.\n\n```yaml\nRALPH_STATUS:\n  STATUS: COMPLETE\n  EXIT_SIGNAL: true\n```\n",
    );
    expect(signals.exitSignal).toEqual({ value: true, source: "status_block" });
    expect(signals.doneSignal).toBe(true);
  });

  it("keeps its RECOMMENDATION out of the prose and its lines out of the errors", () => {
    const signals = analyzeResponse(
      "Worked on the parser.\n\nRALPH_STATUS:\nSTATUS: IN_PROGRESS\nRECOMMENDATION: Everything is done; open a PR\nError: none",
    );
    expect(signals.completionPhrases).toEqual([]);
    expect(signals.errorFingerprint).toBeNull();
  });

  it("takes no block from RALPH_STATUS: in prose without fields", () => {
    const signals = analyzeResponse(
      "At the end I print this line:\nRALPH_STATUS:\n\nSTATUS: COMPLETE\nEXIT_SIGNAL: true",
    );
    expect(signals.statusBlock).toBeNull();
    expect(signals.exitSignal).toBeNull();
  });
});

describe("analyzeResponse: untrusted input", () => {
  const pieces = fc.constantFrom(
    "All tasks are complete.",
    "Should I use A or B?",
    "<promise>DONE</promise>",
    "---RALPH_STATUS---",
    "---END_RALPH_STATUS---",
    "STATUS: COMPLETE",
    "EXIT_SIGNAL: false",
    "EXIT_SIGNAL: true",
    "```",
    "> ",
    "- ",
    "`",
    "<tool_result>",
    "</tool_result>",
    "$ npm test",
    "Error: boom",
    "Traceback (most recent call last):",
    "Permission to use Bash has been denied.",
    "\n",
    "\n\n",
    "\r\n",
    "\uFEFF",
  );
  const answers = fc
    .array(fc.oneof(pieces, fc.string()), { maxLength: 40 })
    .map((parts) => parts.join(""));

  it("never throws and keeps its signals consistent", () => {
    fc.assert(
      fc.property(answers, (text) => {
        const signals = analyzeResponse(text, { completionPromise: "DONE" });
        expect(signals.completionIndicatorCount).toBe(signals.completionPhrases.length);
        expect(signals.askingQuestions).toBe(signals.questions.length > 0);
        expect(signals.errorFingerprint === null).toBe(signals.errorSummary === null);
        if (signals.errorFingerprint !== null)
          expect(signals.errorFingerprint).toMatch(/^[0-9a-f]{16}$/);
        if (signals.exitSignal?.value === false) expect(signals.doneSignal).toBe(false);
        if (signals.statusBlock?.exitSignal === false) {
          expect(signals.exitSignal).toEqual({ value: false, source: "status_block" });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("takes no exit signal from fields written outside a status block", () => {
    const signals = analyzeResponse("STATUS: COMPLETE\nEXIT_SIGNAL: true");
    expect(signals.statusBlock).toBeNull();
    expect(signals.exitSignal).toBeNull();
    expect(signals.doneSignal).toBe(false);
  });
});
