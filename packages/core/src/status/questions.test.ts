import { describe, expect, it } from "vitest";
import { analyzeResponse } from "./analyze-response.js";

describe("questions to the user", () => {
  it.each([
    "Should I use A or B?",
    "Which approach do you prefer?",
    "Would you like me to add a migration as well?",
    "Want me to continue with TASK-005?",
    "Is it okay if I delete the legacy adapter?",
    "Do you want the CLI flag to be --json or --format=json?",
    "Shall we switch to pnpm?",
    "Any preferences for the log format?",
  ])("counts %j", (text) => {
    const signals = analyzeResponse(`I finished the lexer.\n\n${text}`);
    expect(signals.questions).toEqual([text]);
    expect(signals.askingQuestions).toBe(true);
  });

  it.each([
    "Please confirm before I proceed.",
    "Let me know which option you want.",
    "Let me know whether the API should be public.",
    "I need your decision on the database schema.",
    "I need you to confirm the release version.",
    "Awaiting your approval to push the branch.",
    "Please advise on the licence question.",
  ])("counts the request %j", (text) => {
    const signals = analyzeResponse(text);
    expect(signals.questions).toEqual([text]);
    expect(signals.askingQuestions).toBe(true);
  });

  it.each([
    ["a rhetorical question answered at once", "Why does this fail? Because the cache is stale."],
    ["a question put to nobody", "What's next? TASK-003."],
    [
      "a question the agent answers itself",
      "Should I use A or B? I'll go with A, since it is already a dependency.",
    ],
    ["a question in a code block", "```\nread -p 'Should I continue? (y/n)' answer\n```"],
    ["a question in inline code", "The prompt `Do you want to overwrite?` now defaults to no."],
    ["a question in a block quote", "> Should I use A or B?\n\nThe issue asked this; I used A."],
    [
      "a question in tool output",
      "<tool_result>Do you want to proceed? [y/N]</tool_result>\nAnswered with --yes.",
    ],
    ["a pleasantry", "Let me know if you have any questions."],
    ["a negated request", "No need to confirm anything; continuing with TASK-006."],
    ["a statement", "I used A, as the plan says."],
  ])("ignores %s", (_label, text) => {
    const signals = analyzeResponse(text);
    expect(signals.questions).toEqual([]);
    expect(signals.askingQuestions).toBe(false);
  });

  it("lists each asking sentence once, in order", () => {
    const signals = analyzeResponse(
      "Should I use A or B?\n\nAlso, which approach do you prefer?\n\nShould I use A or B?",
    );
    expect(signals.questions).toEqual([
      "Should I use A or B?",
      "Also, which approach do you prefer?",
    ]);
  });
});
