import { describe, expect, it } from "vitest";
import type { ChatTurn } from "./chat-turn.js";
import { extractUserConcerns } from "./user-concerns.js";

const user = (text: string): ChatTurn => ({ role: "user", text });
const assistant = (text: string): ChatTurn => ({ role: "assistant", text });

/** What one user message raises, as `kind:phrase` strings. */
function raised(text: string): string[] {
  return extractUserConcerns([user(text)]).map((concern) => `${concern.kind}:${concern.phrase}`);
}

describe("extractUserConcerns: phrases", () => {
  it.each([
    ["This is wrong.", "issue:is wrong"],
    ["That's wrong, the total is off.", "issue:That's wrong"],
    ["The login is not working", "issue:not working"],
    ["It doesn't work on Safari.", "issue:doesn't work"],
    ["The build is broken.", "issue:broken"],
    ["Tests are still failing.", "issue:failing"],
    ["It crashes when I click save.", "issue:crashes"],
    ["I get an error when saving.", "issue:get an error"],
    ["It's still not fixed.", "issue:not fixed"],
    ["Why is it still failing?", "issue:failing"],
    ["If I run the build, it crashes.", "issue:crashes"],
    ["Blocked by the missing API key.", "blocker:Blocked by"],
    ["We can't proceed until the schema is approved.", "blocker:can't proceed until"],
    ["Still waiting on the design review.", "blocker:Still waiting on"],
    ["Fix this.", "correction:Fix this"],
    ["That's not what I asked for.", "correction:not what I asked for"],
    ["The title should be Settings, not Preferences.", "correction:should be Settings, not"],
    ["Please change the colour to blue.", "correction:Please change"],
    ["Can you fix this?", "correction:fix this"],
    ["You forgot the tests.", "correction:You forgot"],
    ["Use bcrypt instead of md5.", "correction:Use bcrypt instead"],
  ])("%s → %s", (text, expected) => {
    expect(raised(text)).toEqual([expected]);
  });

  it.each([
    ["It's not broken.", "negated"],
    ["Nothing is wrong with the header.", "negated"],
    ["No blockers on my side.", "negated"],
    ["Don't fix this yet.", "negated"],
    ["If this is wrong, let me know.", "conditional"],
    ["If the build breaks, fix it.", "conditional, for the whole sentence"],
    ["Once it's fixed, deploy it.", "conditional resolution, nothing raised"],
    ["In case it breaks, tell me.", "conditional"],
    ["It might be broken on Windows.", "hedged"],
    ["Is it still broken?", "yes/no question"],
    ["Should I fix this?", "yes/no question"],
    ["The failing test passes now.", "resolved in the same sentence"],
    ["Implement the plan in plan.md.", "no phrase"],
    ["Not right now, thanks.", "not a complaint"],
  ])("%s raises nothing (%s)", (text) => {
    expect(raised(text)).toEqual([]);
  });

  it("raises one concern per sentence, from its first phrase, with the sentence and turn", () => {
    const concerns = extractUserConcerns([
      assistant("Done."),
      user("Fix the crash   on save. Also the\nfooter is broken!"),
    ]);
    expect(concerns).toEqual([
      { kind: "correction", text: "Fix the crash on save.", phrase: "Fix the", turnIndex: 1 },
      { kind: "issue", text: "footer is broken!", phrase: "broken", turnIndex: 1 },
    ]);
  });

  it("skips fenced code, indented code, block quotes and inline code", () => {
    const pasted = [
      "Here is the log:",
      "```",
      "FAIL src/a.test.ts",
      "Error: this is wrong",
      "```",
      "    at crash (broken.js:1)",
      "> this is broken",
      "Running `broken-pipe --fix this` now.",
    ].join("\n");
    expect(raised(pasted)).toEqual([]);
    expect(raised(`${pasted}\nAnd it still crashes.`)).toEqual(["issue:crashes"]);
  });

  it("skips an unclosed fence to the end", () => {
    expect(raised("See:\n~~~\nbroken\nfailing")).toEqual([]);
  });
});

describe("extractUserConcerns: turns", () => {
  it("ignores assistant turns, which neither raise nor resolve", () => {
    expect(extractUserConcerns([assistant("This is broken. Fix this.")])).toEqual([]);
    const concerns = extractUserConcerns([
      user("The login is broken."),
      assistant("Fixed, looks good! It works now."),
    ]);
    expect(concerns.map((concern) => concern.phrase)).toEqual(["broken"]);
  });

  it("clears earlier turns' concerns when a later user turn resolves", () => {
    for (const resolution of ["Thanks, that works now.", "Fixed, looks good", "Never mind."]) {
      const concerns = extractUserConcerns([
        user("The login is broken."),
        user("And I'm blocked by the API key."),
        assistant("Both done."),
        user(resolution),
      ]);
      expect(concerns).toEqual([]);
    }
  });

  it("keeps concerns raised after the resolution, and in the resolving turn", () => {
    const concerns = extractUserConcerns([
      user("The login is broken."),
      assistant("Fixed."),
      user("Signup is still failing. Login works now, but the footer is broken."),
    ]);
    expect(concerns.map((concern) => [concern.phrase, concern.turnIndex])).toEqual([
      ["failing", 2],
      ["broken", 2],
    ]);
  });

  it("does not resolve on a negated, conditional or questioned resolution", () => {
    for (const text of ["It's not fixed.", "If that works, great.", "Does it work now?"]) {
      const concerns = extractUserConcerns([user("The login is broken."), user(text)]);
      expect(concerns[0]?.phrase).toBe("broken");
    }
  });

  it("reads only the last lookbackTurns turns, both roles counted", () => {
    // 12 turns: index 1 is turn N-11, outside the default window of 10; index 2 is inside.
    const turns: ChatTurn[] = Array.from({ length: 12 }, (_, index) =>
      index % 2 === 0 ? assistant("Working on it.") : user("Looks like progress."),
    );
    turns[1] = user("The header is broken.");
    expect(extractUserConcerns(turns)).toEqual([]);
    turns[2] = user("The footer is broken.");
    expect(extractUserConcerns(turns).map((concern) => concern.turnIndex)).toEqual([2]);
    expect(extractUserConcerns(turns, { lookbackTurns: 11 })).toHaveLength(2);
    expect(extractUserConcerns(turns, { lookbackTurns: 0 })).toEqual([]);
  });

  it("a resolution outside the window does not clear a concern inside it", () => {
    const turns = [user("Looks good."), user("The header is broken.")];
    expect(extractUserConcerns(turns, { lookbackTurns: 1 })).toHaveLength(1);
  });

  it.each([-1, 2.5, Number.NaN])("rejects lookbackTurns %d", (lookbackTurns) => {
    expect(() => extractUserConcerns([], { lookbackTurns })).toThrow(RangeError);
  });
});
