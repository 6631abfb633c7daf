import { describe, expect, it } from "vitest";
import { findKept } from "./find-kept.js";

const KEPT = [
  { taskId: "TASK-1", branch: "loop/kept/TASK-1-aa/1", keptAt: 1, commits: 1 },
  { taskId: "TASK-3", branch: "loop/kept/TASK-3-bb/1", keptAt: 2, commits: 2 },
];

describe("findKept", () => {
  it("finds the kept work on the branch named", () => {
    expect(findKept("loop/kept/TASK-3-bb/1", KEPT, "/p")).toBe(KEPT[1]);
  });

  it("names the close match of a misspelt branch", () => {
    expect(() => findKept("loop/kept/TASK-3-b/1", KEPT, "/p")).toThrow(
      'no kept work is on branch "loop/kept/TASK-3-b/1" in /p. Did you mean loop/kept/TASK-3-bb/1? `loop branches` lists them.',
    );
  });

  it("names a task's kept branches when given its id", () => {
    expect(() => findKept("TASK-1", KEPT, "/p")).toThrow(
      "TASK-1 is a task; its work is kept on loop/kept/TASK-1-aa/1.",
    );
  });

  it("lists the kept branches when none is close, and says when there is none", () => {
    expect(() => findKept("main", KEPT, "/p")).toThrow(
      "Kept branches: loop/kept/TASK-1-aa/1, loop/kept/TASK-3-bb/1.",
    );
    expect(() => findKept("main", [], "/p")).toThrow("There is no kept work.");
  });
});
