import { describe, expect, it } from "vitest";
import { isNegated } from "./negation.js";

/** Whether the phrase, found in the sentence, is negated. */
function negated(sentence: string, phrase: string): boolean {
  const start = sentence.toLowerCase().indexOf(phrase.toLowerCase());
  if (start < 0) throw new Error(`${phrase} is not in ${sentence}`);
  return isNegated(sentence, start, start + phrase.length);
}

describe("isNegated", () => {
  it.each([
    ["Not all tasks are complete.", "all tasks are complete"],
    ["I don't think all tasks are complete.", "all tasks are complete"],
    ["I am not done.", "done"],
    ["Nothing is complete until the tests pass.", "complete"],
    ["It is never finished.", "finished"],
    ["Once all tasks are complete, stop.", "all tasks are complete"],
    ["If everything is done, output DONE.", "everything is done"],
    ["Verify that all tasks are complete.", "all tasks are complete"],
    ["Make sure everything is done.", "everything is done"],
    ["The project is complete except for the docs.", "the project is complete"],
    ["Everything is done, but CI is red.", "everything is done"],
    ["The project is complete once CI passes.", "the project is complete"],
  ])("negates %j", (sentence, phrase) => {
    expect(negated(sentence, phrase)).toBe(true);
  });

  it.each([
    ["All tasks are complete.", "all tasks are complete"],
    ["No regressions, and all tasks are complete.", "all tasks are complete"],
    ["After fixing the lexer, all tasks are complete.", "all tasks are complete"],
    ["There is nothing left to do.", "nothing left to do"],
    ["I wasn't sure at first; everything is done now.", "everything is done"],
  ])("keeps %j", (sentence, phrase) => {
    expect(negated(sentence, phrase)).toBe(false);
  });
});
