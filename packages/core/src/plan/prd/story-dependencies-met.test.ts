import { describe, expect, it } from "vitest";
import { parsePrd } from "./parse-prd.js";
import { PrdUnknownStoryError } from "./prd-unknown-story-error.js";
import { storyDependenciesMet } from "./story-dependencies-met.js";

const prd = parsePrd(
  JSON.stringify({
    stories: [
      { id: "S1", title: "model", passes: true },
      { id: "S2", title: "store", passes: false },
      { id: "S3", title: "list", dependencies: ["S1"] },
      { id: "S4", title: "edit", dependencies: ["S1", "S2"], passes: false },
      { id: "S5", title: "done but blocked", dependencies: ["S2"], passes: true },
    ],
  }),
);

describe("storyDependenciesMet", () => {
  it("is true for a story without dependencies", () => {
    expect(storyDependenciesMet(prd, "S1")).toBe(true);
    expect(storyDependenciesMet(prd, "S2")).toBe(true);
  });

  it("is true when every dependency passes", () => {
    expect(storyDependenciesMet(prd, "S3")).toBe(true);
  });

  it("is false when any dependency does not pass", () => {
    expect(storyDependenciesMet(prd, "S4")).toBe(false);
  });

  it("does not look at the story's own passes", () => {
    expect(storyDependenciesMet(prd, "S5")).toBe(false);
  });

  it("throws PrdUnknownStoryError with the nearest id for an unknown story", () => {
    expect(() => storyDependenciesMet(prd, "S7")).toThrow(PrdUnknownStoryError);
    try {
      storyDependenciesMet(prd, "s4");
    } catch (error) {
      expect(PrdUnknownStoryError.isInstance(error)).toBe(true);
      if (!PrdUnknownStoryError.isInstance(error)) return;
      expect(error.code).toBe("PRD_UNKNOWN_STORY");
      expect(error.unknownId).toEqual({ id: "s4", suggestion: "S4" });
      expect(error.message).toBe("The prd.json has no story with id `s4` (did you mean `S4`?)");
    }
  });
});
