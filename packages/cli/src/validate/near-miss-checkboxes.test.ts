import { parsePlan } from "@loop/core";
import { describe, expect, it } from "vitest";
import { findNearMissCheckboxes } from "./near-miss-checkboxes.js";

describe("findNearMissCheckboxes", () => {
  it("finds the items a task list does not take, with their positions", () => {
    const plan = [
      "## Tasks",
      "- [ ] TASK-1 A task",
      "- [x] TASK-2 Done",
      "- [] TASK-4 No space in the box",
      "- [ x] TASK-5 A space too many",
      "-[ ] TASK-6 No space after the dash",
      "  * [  ] TASK-7 Two spaces",
      "1. [X] TASK-8 Numbered, fine",
    ].join("\n");
    expect(findNearMissCheckboxes(plan)).toEqual([
      { line: 4, column: 3, written: "[]" },
      { line: 5, column: 3, written: "[ x]" },
      { line: 6, column: 2, written: "[ ]" },
      { line: 7, column: 5, written: "[  ]" },
    ]);
    // What they are to the parser: not tasks.
    expect(parsePlan(plan).tasks.map((task) => task.id)).toEqual(["TASK-1", "TASK-2", "TASK-8"]);
  });

  it("leaves links, references, code blocks and prose alone", () => {
    const plan = [
      "- [docs](docs/plan-format.md) are here",
      "- [1] a footnote-like note",
      "- [A] an option",
      "```md",
      "- [] an example in a code block",
      "```",
      "Some prose with [] brackets.",
    ].join("\n");
    expect(findNearMissCheckboxes(plan)).toEqual([]);
  });
});
