import { describe, expect, it } from "vitest";
import { displayPath } from "./display-path.js";

describe("displayPath", () => {
  it("shows a path inside the project relative to it", () => {
    expect(displayPath("/p", "/p/.claude/loop/config.yaml")).toBe(".claude/loop/config.yaml");
  });

  it("shows a path outside the project, or the project itself, as it is", () => {
    expect(displayPath("/p", "/q/plan.md")).toBe("/q/plan.md");
    expect(displayPath("/p", "/p")).toBe("/p");
  });
});
