import { describe, expect, it } from "vitest";
import * as status from "./index.js";

describe("status public API", () => {
  it("exports exactly these values", () => {
    expect(Object.keys(status).sort()).toEqual([
      "STATUS_BLOCK_END",
      "STATUS_BLOCK_FIELDS",
      "STATUS_BLOCK_START",
      "STATUS_VALUES",
      "TESTS_STATUS_VALUES",
      "WORK_TYPES",
      "analyzeResponse",
      "parseStatusBlock",
    ]);
  });

  it("exports frozen vocabularies", () => {
    expect(status.STATUS_VALUES).toEqual(["IN_PROGRESS", "COMPLETE", "BLOCKED"]);
    expect(status.TESTS_STATUS_VALUES).toEqual(["PASSING", "FAILING", "NOT_RUN"]);
    expect(status.WORK_TYPES).toEqual([
      "IMPLEMENTATION",
      "TESTING",
      "DOCUMENTATION",
      "REFACTORING",
    ]);
    expect(Object.isFrozen(status.STATUS_VALUES)).toBe(true);
    expect(Object.isFrozen(status.STATUS_BLOCK_FIELDS)).toBe(true);
  });
});

describe("the documented examples", () => {
  it("hold for parseStatusBlock", () => {
    const block = status.parseStatusBlock(`Implemented the parser.

---RALPH_STATUS---
STATUS: IN_PROGRESS
TASKS_COMPLETED_THIS_LOOP: 1
FILES_MODIFIED: three
EXIT_SIGNAL: false
---END_RALPH_STATUS---`);
    expect(block?.status).toBe("IN_PROGRESS");
    expect(block?.exitSignal).toBe(false);
    expect(block?.filesModified).toBeNull();
    expect(block?.problems[0]).toEqual({
      message: 'FILES_MODIFIED is "three": expected a whole number, 0 or more',
      line: 6,
      column: 17,
      path: ["FILES_MODIFIED"],
    });
  });

  it("hold for analyzeResponse", () => {
    const signals = status.analyzeResponse(`All tasks are complete and the tests pass.

---RALPH_STATUS---
STATUS: COMPLETE
EXIT_SIGNAL: false
---END_RALPH_STATUS---`);
    expect(signals.exitSignal).toEqual({ value: false, source: "status_block" });
    expect(signals.doneSignal).toBe(false);
    expect(signals.completionPhrases).toEqual(["All tasks are complete"]);
    expect(signals.contradictions).toHaveLength(2);
  });
});
