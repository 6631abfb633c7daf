import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { prdStorySchema } from "./prd-schema.js";
import { quickStoryIdList, quickStoryInput } from "./quick-story-input.js";

// The hand check must never accept what the schema refuses, and must give what the schema
// gives for the schema's own fields; it may leave any story to the schema.

const FIELDS = Object.keys(prdStorySchema.shape);

/** JSON values near each field's edge: empty and blank strings, integers and not, lists. */
const edgeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom("", " ", "S1", "US-001", 0, 1, -1, 1.5, 2 ** 53, true, false, null),
  fc.string({ maxLength: 4 }),
  fc.integer(),
  fc.array(fc.oneof(fc.constantFrom("", " ", "S2", 2, 2.5, null, true), fc.string()), {
    maxLength: 3,
  }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
);

const storyItem: fc.Arbitrary<unknown> = fc.oneof(
  {
    arbitrary: fc.dictionary(fc.constantFrom(...FIELDS, "owner", "__proto__"), edgeValue),
    weight: 8,
  },
  { arbitrary: edgeValue, weight: 1 },
);

/** The schema's output for its own fields. */
function schemaFields(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    FIELDS.filter((field) => data[field] !== undefined).map((field) => [field, data[field]]),
  );
}

describe("quickStoryInput", () => {
  it("vouches only for stories the schema accepts, with the schema's values", () => {
    fc.assert(
      fc.property(storyItem, (json) => {
        const item: unknown = JSON.parse(JSON.stringify(json) ?? "null");
        const quick = quickStoryInput(item);
        if (quick === null) return;
        const result = prdStorySchema.safeParse(item);
        expect(result.success).toBe(true);
        if (result.success) expect(quick).toEqual(schemaFields(result.data));
      }),
      { numRuns: 2000 },
    );
  });

  it("vouches for the stories the ralph-loop skill writes", () => {
    const story = {
      id: "S2",
      title: "List todos",
      description: "GET /todos",
      acceptanceCriteria: ["GET /todos returns every todo"],
      dependencies: ["S1", 3],
      verification: "npm test -- list-todos",
      passes: false,
      priority: 2,
      notes: null,
      owner: "ada",
    };
    expect(quickStoryInput(story)).toEqual(schemaFields(prdStorySchema.parse(story)));
    expect(quickStoryInput({ id: 7, title: "One", acceptance_criteria: "a single one" })).toEqual({
      id: 7,
      title: "One",
      acceptance_criteria: ["a single one"],
    });
  });

  it.each([
    ["a blank title", { title: " " }],
    ["a null passes", { title: "T", passes: null }],
    ["a fractional id", { title: "T", id: 1.5 }],
    ["an empty dependency", { title: "T", dependencies: [""] }],
    ["criteria that are not text", { title: "T", acceptanceCriteria: [1] }],
    ["an array", [{ title: "T" }]],
  ])("leaves %s to the schema", (_, item) => {
    expect(quickStoryInput(item)).toBeNull();
    expect(prdStorySchema.safeParse(item).success).toBe(false);
  });
});

describe("quickStoryIdList", () => {
  it("gives what the dependency schema gives, or leaves the value to it", () => {
    fc.assert(
      fc.property(edgeValue, (json) => {
        const value: unknown = JSON.parse(JSON.stringify(json) ?? "null");
        const quick = quickStoryIdList(value);
        if (quick === false) return;
        const result = prdStorySchema.shape.dependencies.safeParse(value);
        expect(result.success).toBe(true);
        if (result.success) expect(quick).toEqual(result.data);
      }),
      { numRuns: 2000 },
    );
  });
});
