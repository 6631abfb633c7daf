import { expect, it } from "vitest";
import * as prd from "./index.js";

it("exports exactly the public API", () => {
  expect(Object.keys(prd).sort()).toEqual([
    "PrdParseError",
    "PrdUnknownStoryError",
    "PrdUpdateError",
    "parsePrd",
    "storyDependenciesMet",
    "updatePrd",
  ]);
});
