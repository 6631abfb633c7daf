import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzePrdDocument } from "./parse-prd.js";
import { PrdParseError } from "./prd-parse-error.js";
import { quickJsonDocument } from "./quick-json-document.js";

// parsePrd reads most documents with JSON.parse and the hand check of each story; the
// locating parser and zod only run when those cannot vouch for the document. Both paths must
// give the same prd, or the same error with the same issues at the same places.

const FILE = { file: "prd.json" };

/** The result of one path: the prd, or the error's message and issues. */
function outcome(json: string, quick: boolean): unknown {
  try {
    const document = quick ? quickJsonDocument(json) : null;
    return { prd: analyzePrdDocument(json, FILE, document).prd };
  } catch (error) {
    if (!PrdParseError.isInstance(error)) throw error;
    return { message: error.message, issues: error.issues };
  }
}

const id = fc.oneof(
  fc.constantFrom("S1", "S2", "S3", "", " ", 1, 2, 1.5, null),
  fc.string({ maxLength: 3 }),
);
const story = fc.record(
  {
    id,
    title: fc.oneof(fc.constantFrom("A story", "", " "), fc.string({ maxLength: 6 })),
    passes: fc.oneof(fc.boolean(), fc.constantFrom(null, "yes")),
    dependencies: fc.oneof(fc.array(id, { maxLength: 2 }), id),
    dependsOn: fc.array(id, { maxLength: 1 }),
    acceptanceCriteria: fc.oneof(
      fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
      fc.constantFrom("one", 3),
    ),
    acceptance_criteria: fc.constantFrom(null, ["two"]),
    verification: fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom(null, 5)),
    verify: fc.constant("npm test"),
    priority: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(null, "high")),
    meta: fc.dictionary(fc.constantFrom("a", "b"), fc.integer(), { maxKeys: 2 }),
  },
  { requiredKeys: ["title"] },
);

/** Damage to the text: a key written twice (at the top, in a story, deeper), bytes changed. */
const damage = fc.oneof(
  fc.constant((json: string) => json),
  fc.constant((json: string) => json.replace('"title"', '"title": "again", "title"')),
  fc.constant((json: string) => json.replace("{", '{"project": "x", "project": "y", ')),
  fc.constant((json: string) => json.replace('"meta": {', '"meta": {"a": 1, "a": 2, ')),
  fc.constant((json: string) => json.replace('"title"', '"\\u0074itle": "escaped", "title"')),
  fc.constant((json: string) => `\uFEFF${json}`),
  fc.constant((json: string) => `${"[".repeat(300)}${json}${"]".repeat(300)}`),
  fc
    .tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom("", ",", "}", '"', "\\", "{"))
    .map(([at, remove, insert]) => (json: string) => {
      const offset = at % (json.length + 1);
      return json.slice(0, offset) + insert + json.slice(offset + remove);
    }),
);

const prdText = fc
  .tuple(
    fc.record(
      {
        project: fc.string({ maxLength: 4 }),
        stories: fc.array(story, { maxLength: 4 }),
        userStories: fc.array(story, { maxLength: 2 }),
        completedStories: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constant(null)),
      },
      { requiredKeys: [] },
    ),
    fc.constantFrom(0, 2, "\t"),
    damage,
  )
  .map(([document, indent, change]) => change(JSON.stringify(document, null, indent)));

describe("parsePrd's quick path", () => {
  it("gives what the locating parser gives: the same prd or the same issues", () => {
    fc.assert(
      fc.property(prdText, (json) => {
        expect(outcome(json, true)).toEqual(outcome(json, false));
      }),
      { numRuns: 1500 },
    );
  });

  it("vouches for a valid document, and for none that repeats a key or is not JSON", () => {
    const valid = '{"stories": [{"id": "S1", "title": "One", "meta": {"a": 1}}]}';
    expect(quickJsonDocument(valid)?.value).toEqual(JSON.parse(valid));
    expect(quickJsonDocument(`\uFEFF${valid}`)?.text).toBe(`\uFEFF${valid}`);
    expect(quickJsonDocument(valid.replace('"a": 1', '"a": 1, "a": 2'))).toBeNull();
    expect(quickJsonDocument(valid.replace('"One"', '"One",'))).toBeNull();
    expect(quickJsonDocument(`${"[".repeat(257)}${"]".repeat(257)}`)).toBeNull();
  });

  it("parses the syntax tree only when it is read, offsets as the text's", () => {
    const text = '\uFEFF{"stories": [{"title": "One"}]}';
    const document = quickJsonDocument(text);
    expect(document?.root.type).toBe("object");
    expect(document?.root.offset).toBe(1);
    expect(document?.root).toBe(document?.root);
  });
});
