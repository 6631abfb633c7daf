import { describe, expect, it } from "vitest";
import * as verify from "./index.js";

describe("verify public API", () => {
  it("exports exactly these values", () => {
    expect(Object.keys(verify).sort()).toEqual([
      "contentWords",
      "extractUserConcerns",
      "matchRequirements",
      "parseClaudeTranscript",
      "similarity",
      "verifyCompletion",
    ]);
  });
});
