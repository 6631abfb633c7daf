import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupTypoNeighbours } from "./typo-neighbours.js";
import { wordSimilarity } from "./word-similarity.js";

/** What a full scan of the vocabulary finds: every other word scoring above 0. */
function scanAll(vocabulary: readonly string[], word: string) {
  return vocabulary
    .filter((other) => other !== word && wordSimilarity(word, other) > 0)
    .map((other) => ({ word: other, similarity: wordSimilarity(word, other) }));
}

const byWord = (left: { word: string }, right: { word: string }) =>
  left.word < right.word ? -1 : left.word > right.word ? 1 : 0;

describe("groupTypoNeighbours", () => {
  it("finds a word's typos, inflection-free, with their similarity", () => {
    const vocabulary = [
      "password",
      "pasword",
      "paswrd",
      "passwords",
      "pass",
      "bcrypt",
      "xpassword",
    ];
    const found = groupTypoNeighbours(vocabulary).of("password");
    expect(found.sort(byWord)).toEqual([
      { word: "passwords", similarity: 1 - 1 / 9 },
      { word: "pasword", similarity: 1 - 1 / 8 },
      { word: "paswrd", similarity: 1 - 2 / 8 },
    ]);
  });

  it("finds nothing for short words, words with digits or words absent from every group", () => {
    const typos = groupTypoNeighbours(["test", "text", "v2s", "v3s", "bcrypt"]);
    expect(typos.of("test")).toEqual([]);
    expect(typos.of("v2s")).toEqual([]);
    expect(typos.of("zebra")).toEqual([]);
    expect(typos.of("")).toEqual([]);
  });

  it("finds exactly what scanning the whole vocabulary finds (dense generated vocabularies)", () => {
    // Few letters, so that many words are one or two edits apart, across the length limits.
    const word = fc.string({ unit: fc.constantFrom("a", "b", "e", "r", "1", "é"), maxLength: 11 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 60 }), word, (vocabulary, probe) => {
        const typos = groupTypoNeighbours(vocabulary);
        for (const query of [probe, ...vocabulary]) {
          expect(typos.of(query).sort(byWord)).toEqual(scanAll(vocabulary, query).sort(byWord));
        }
      }),
      { seed: 15_016, numRuns: 300 },
    );
  });
});
