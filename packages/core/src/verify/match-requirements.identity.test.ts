import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentWords } from "./content-words.js";
import { matchRequirements } from "./match-requirements.js";
import { matchRequirementsAllPairs } from "./match-requirements-reference.js";

// The indexed matcher must return exactly what the all-pairs reference returns: same scores,
// verdicts, tasks, candidates and candidate order, for any tasks, requirements and options.
// Each case's texts are drawn mostly from a few word families full of near misses (typos,
// transpositions, inflections, stop words, filler, digits, accents), so most pairs share words
// and the fuzzy, combining and all-words paths are all taken; unrelated padding tasks make some
// requirements touch only a few tasks of many.

const SEED = 15_015;
const RUNS = 400;

/**
 * Word families: a word, its inflections and typos of it (one or two edits, swapped letters,
 * a letter more or less), so that texts on one topic match fuzzily and partly.
 */
// biome-ignore format: word lists, kept compact
const families: readonly (readonly string[])[] = [
  ["password", "passwords", "pasword", "passwrod", "paswrd", "passwordss"],
  ["hash", "hashing", "hashes", "hashed"],
  ["bcrypt", "bcrpyt", "bcryt"],
  ["login", "log in", "logins", "logout", "sign in"],
  ["endpoint", "endpoints", "endpiont", "endpont", "endpoiint"],
  ["token", "tokens", "JWT", "tokne"],
  ["test", "tests", "text", "testing", "tested"],
  ["format", "formatting", "formatted", "normat", "formmat"],
  ["localisation", "localization", "local", "localise", "locallisation", "localsation"],
  ["authenticate", "authentication", "authentification", "autenticate", "authenticating"],
  ["document", "documentation", "documented", "documnet", "docs"],
  ["cache", "caching", "cached", "cahce"],
  ["email", "e-mail", "emial", "emails"],
  ["inventory", "inventroy", "inventry", "invntry", "inventories"],
  ["configuration", "configration", "confguration", "configure", "config"],
  ["user", "users", "admin", "admins", "user's"],
  ["export", "exports", "report", "reports", "exprot"],
  ["dark", "mode", "theme", "colour", "color"],
  ["not", "can't", "never", "without"],
  ["401", "403", "404", "12th", "v2", "v2s"],
  ["Café", "naïve", "façade", "cafe", "naive"],
  ["unit", "parser", "parsing", "parse", "item", "items"],
  // stop words, filler and actor preambles: the all-words fallback
  ["the", "a", "for", "with", "and", "of", "is", "it", "was", "done"],
  ["implement", "add", "write", "support", "uses", "User can", "As a user, I can", "should"],
];
const vocabulary = families.flat();
const separators = [" ", " ", " ", ", ", "/", " - ", "-", ". "];

/** A text mostly made of the case's topic words, so that tasks and requirements overlap. */
const textOf = (topic: readonly string[]) =>
  fc.oneof(
    {
      arbitrary: fc
        .array(
          fc.tuple(
            fc.oneof(
              { arbitrary: fc.constantFrom(...topic), weight: 4 },
              { arbitrary: fc.constantFrom(...vocabulary), weight: 1 },
            ),
            fc.constantFrom(...separators),
          ),
          { maxLength: 7 },
        )
        .map((parts) => parts.map(([word, separator]) => word + separator).join("")),
      weight: 12,
    },
    { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }), weight: 1 },
  );

const padding = (count: number, from: number) =>
  Array.from({ length: count }, (_, index) => ({
    title: `Chore ${from + index}: rename qz${from + index}`,
    done: true,
  }));

/** Tasks on the topic, between runs of unrelated ones; ids are unique. */
const tasksOf = (topic: readonly string[]) =>
  fc
    .tuple(
      fc.array(
        fc.record({
          title: textOf(topic),
          done: fc.constantFrom(true, true, true, false, undefined),
        }),
        { maxLength: 24 },
      ),
      fc.nat({ max: 160 }),
      fc.nat({ max: 160 }),
    )
    .map(([generated, before, after]) =>
      [...padding(before, 0), ...generated, ...padding(after, 1_000)].map((task, index) => ({
        id: `T${index}`,
        ...task,
      })),
    );

const requirementsOf = (topic: readonly string[]) =>
  fc.array(
    fc.record({ text: textOf(topic), checked: fc.constantFrom(true, false, null, undefined) }),
    { maxLength: 8 },
  );

const optionsArb = fc.oneof(
  fc.constant(undefined),
  fc.record(
    {
      threshold: fc.oneof(
        fc.constantFrom(0, 0.25, 0.5, 0.6, 0.75, 0.8, 1),
        fc.double({ min: 0, max: 1, noNaN: true }),
      ),
      maxCombinedTasks: fc.integer({ min: 1, max: 4 }),
    },
    { requiredKeys: [] },
  ),
);

const casesArb = fc
  .shuffledSubarray([...families], { minLength: 1, maxLength: 4 })
  .map((chosen) => chosen.flat())
  .chain((topic) => fc.tuple(requirementsOf(topic), tasksOf(topic), optionsArb));

describe("matchRequirements (indexed) against the all-pairs reference", () => {
  it(`returns the same result on ${RUNS} generated plans (seed ${SEED})`, {
    timeout: 60_000,
  }, () => {
    const seen = { matched: 0, unmatched: 0, combined: 0, typos: 0, allWords: 0, fewTouched: 0 };
    fc.assert(
      fc.property(casesArb, ([requirements, tasks, options]) => {
        const indexed = matchRequirements(requirements, tasks, options);
        expect(indexed).toEqual(matchRequirementsAllPairs(requirements, tasks, options));
        for (const match of indexed) {
          const words = contentWords(match.requirement.text);
          if (match.matched) seen.matched += 1;
          else seen.unmatched += 1;
          if (match.tasks.length > 1) seen.combined += 1;
          // A typo counts 1 − edits / length: a score that is no whole number of words.
          const typo = ({ score }: { score: number }) =>
            Math.abs(score * words.length - Math.round(score * words.length)) > 1e-3;
          if (words.length > 0 && match.candidates.some(typo)) seen.typos += 1;
          if (words.length === 0 && match.candidates.length > 0) seen.allWords += 1;
          if (match.candidates.length > 0 && match.candidates.length * 8 < tasks.length) {
            seen.fewTouched += 1;
          }
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The generator reaches every path the index takes, not just the easy ones.
    for (const [path, count] of Object.entries(seen)) {
      expect(count, `cases exercising ${path}`).toBeGreaterThan(0);
    }
  });
});
