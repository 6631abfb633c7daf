import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findCompletionPhrases, hasWords, STRONG_COMPLETIONS } from "./completion-phrases.js";
import type { ProseSentence } from "./sentences.js";

// A sentence is matched against a strong completion pattern only when it has the pattern's
// words: the words must be in every match, or a statement would go unseen.

/** Strings the pattern matches, in any letter case, with text around them. */
function matchesOf(pattern: RegExp): fc.Arbitrary<string> {
  // fast-check generates from case-sensitive patterns without \b and lookarounds; the pattern
  // itself then keeps only the strings it matches.
  const source = pattern.source
    .replaceAll("\\b", "")
    .replaceAll("(?<=[:;] )", "")
    .replaceAll("(?=[\\s.!,;:]|$)", "");
  return fc
    .tuple(
      fc.constantFrom("", "Then ", "Note: ", "So; "),
      fc.stringMatching(new RegExp(source)),
      fc.constantFrom("", ".", " now.", " and more"),
      fc.infiniteStream(fc.boolean()),
    )
    .map(([before, core, after, upper]) =>
      [...`${before}${core}${after}`]
        .map((character) => (upper.next().value ? character.toUpperCase() : character))
        .join(""),
    )
    .filter((text) => pattern.test(text));
}

describe("STRONG_COMPLETIONS", () => {
  it.each(STRONG_COMPLETIONS.map((entry, index) => [index, entry] as const))(
    "pattern %i: every match has the pattern's words",
    (_, { pattern, words }) => {
      fc.assert(
        fc.property(matchesOf(pattern), (text) => {
          expect(hasWords(text.toLowerCase(), words)).toBe(true);
        }),
        { numRuns: 300 },
      );
    },
  );
});

describe("findCompletionPhrases", () => {
  const sentence = (text: string): ProseSentence => ({
    text,
    start: 0,
    end: text.length,
    paragraph: 0,
    quoted: false,
  });

  it("finds a statement whatever its case, and none in a sentence without the words", () => {
    expect(findCompletionPhrases([sentence("ALL TASKS ARE COMPLETE.")])).toEqual([
      "ALL TASKS ARE COMPLETE",
    ]);
    expect(findCompletionPhrases([sentence("I've Finished everything.")])).toEqual([
      "I've Finished everything",
    ]);
    expect(findCompletionPhrases([sentence("The parser reads the file.")])).toEqual([]);
  });
});
