import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkDependencyCycles } from "./check-dependency-cycles.js";
import { findDependencyCycles } from "./find-dependency-cycles.js";
import { quickJsonDocument } from "./quick-json-document.js";
import type { StoryDraft } from "./story-draft.js";

const IDS = ["S1", "S2", "S3", "S4", "S5"];

/** Stories S1… in order (an id may repeat), each with some dependencies. */
const drafts = fc
  .array(
    fc.tuple(fc.constantFrom(...IDS), fc.array(fc.constantFrom(...IDS, "X"), { maxLength: 3 })),
    {
      maxLength: 6,
    },
  )
  .map((stories) =>
    stories.map(
      ([id, dependencies], index): StoryDraft => ({
        index,
        path: ["stories", index],
        id,
        derivedId: false,
        story: null,
        dependencies,
        dependencyPaths: dependencies.map((_, position) => [
          "stories",
          index,
          "dependencies",
          position,
        ]),
      }),
    ),
  );

describe("checkDependencyCycles", () => {
  it("reports a cycle exactly when the stories' graph has one", () => {
    const document = quickJsonDocument('{"stories": []}');
    if (document === null) throw new Error("not a quick document");
    fc.assert(
      fc.property(drafts, (stories) => {
        const byId = new Map<string, StoryDraft>();
        for (const draft of stories)
          if (draft.id !== null && !byId.has(draft.id)) byId.set(draft.id, draft);
        const edges = new Map(
          [...byId].map(([id, draft]) => [id, draft.dependencies.filter((d) => byId.has(d))]),
        );
        const cycles = findDependencyCycles([...byId.keys()], edges);
        expect(checkDependencyCycles({ document, drafts: stories }).length).toBe(cycles.length);
      }),
      { numRuns: 2000 },
    );
  });
});
