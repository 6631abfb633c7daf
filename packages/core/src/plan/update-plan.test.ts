import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LoopError } from "../errors/loop-error.js";
import { crlfPlan, planCorpus, seedExamplePlan } from "./fixtures/plan-corpus.js";
import { parsePlan } from "./parse-plan.js";
import { PlanParseError } from "./plan-parse-error.js";
import { PlanUpdateError } from "./plan-update-error.js";
import { type PlanEdit, updatePlan } from "./update-plan.js";

/** The indexes where two strings of the same length differ. */
function differingIndexes(before: string, after: string): number[] {
  expect(after).toHaveLength(before.length);
  const indexes: number[] = [];
  for (let index = 0; index < before.length; index += 1) {
    if (before[index] !== after[index]) indexes.push(index);
  }
  return indexes;
}

function updateError(markdown: string, edit: PlanEdit): PlanUpdateError {
  try {
    updatePlan(markdown, edit, { file: "plan.md" });
  } catch (error) {
    if (PlanUpdateError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected updatePlan to throw");
}

describe("updatePlan round-trips over the corpus", () => {
  for (const [name, markdown] of Object.entries(planCorpus)) {
    const before = parsePlan(markdown);
    const open = before.tasks.filter((task) => !task.done).map((task) => task.id);

    it(`${name}: checking every open task changes only their boxes, [ ] to [x]`, () => {
      const checked = updatePlan(markdown, { check: open });
      const after = parsePlan(checked);
      expect(after.tasks.map((task) => task.id)).toEqual(before.tasks.map((task) => task.id));
      expect(after.tasks.every((task) => task.done)).toBe(true);
      const changed = differingIndexes(markdown, checked);
      expect(changed).toHaveLength(open.length);
      for (const index of changed) {
        expect(markdown[index]).toBe(" ");
        expect(checked[index]).toBe("x");
        expect(markdown[index - 1]).toBe("[");
        expect(markdown[index + 1]).toBe("]");
      }
    });

    it(`${name}: unchecking what was checked gives back the original bytes`, () => {
      const checked = updatePlan(markdown, { check: open });
      expect(updatePlan(checked, { uncheck: open })).toBe(markdown);
    });
  }

  it("keeps every CRLF of a Windows plan", () => {
    const checked = updatePlan(crlfPlan, { check: ["TASK-001", "untagged-work-item"] });
    expect(checked.split("\r\n")).toHaveLength(crlfPlan.split("\r\n").length);
    expect(checked.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  });

  it("unchecks [X] and [x] to [ ]", () => {
    const plan = "- [X] TASK-1 a\n- [x] TASK-2 b\n";
    expect(updatePlan(plan, { uncheck: ["TASK-1", "TASK-2"] })).toBe(
      "- [ ] TASK-1 a\n- [ ] TASK-2 b\n",
    );
  });

  it("leaves a box already in the wanted state alone and returns the same text", () => {
    const plan = "- [X] TASK-1 a\n- [ ] TASK-2 b\n";
    expect(updatePlan(plan, { check: ["TASK-1"], uncheck: ["TASK-2"] })).toBe(plan);
    expect(updatePlan(plan, {})).toBe(plan);
  });

  it("checks a box whose value is a tab", () => {
    expect(updatePlan("- [\t] TASK-1 a\n", { check: ["TASK-1"] })).toBe("- [x] TASK-1 a\n");
  });

  it("finds tasks with the same optional headings as parsePlan", () => {
    const plan = "## Tasks\n- [ ] TASK-1 a\n## Someday\n- [ ] TASK-2 b\n";
    expect(() => updatePlan(plan, { check: ["TASK-2"] })).toThrow(/Unknown task id "TASK-2"/);
    expect(updatePlan(plan, { check: ["TASK-2"] }, { optionalHeadings: ["Someday"] })).toBe(
      "## Tasks\n- [ ] TASK-1 a\n## Someday\n- [x] TASK-2 b\n",
    );
  });
});

describe("updatePlan on generated plans", () => {
  const fragments = [
    "# Title",
    "## Tasks",
    "### Optional",
    "## RALPH_STATUS",
    "- EXIT_SIGNAL: false",
    "- [ ] Open task",
    "- [x] Done task",
    "  - [ ] Nested open",
    "\t* [X] Tabbed done",
    "1) [ ] Ordered 😀 task",
    "- [ ] 修复 bug   ",
    "> - [ ] quoted",
    "```",
    "<!-- note -->",
    "- plain",
    "text",
    "",
  ];
  const line = fc.tuple(fc.constantFrom(...fragments), fc.constantFrom("\n", "\r\n"));

  it("changes exactly one character per box it flips, and nothing else", {
    timeout: 120_000,
  }, () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(line, { maxLength: 30 }), (bom, lines) => {
        const markdown =
          (bom ? "\uFEFF" : "") + lines.map(([text, ending]) => text + ending).join("");
        const tasks = parsePlan(markdown).tasks;
        const open = tasks.filter((task) => !task.done).map((task) => task.id);
        const done = tasks.filter((task) => task.done).map((task) => task.id);
        const checked = updatePlan(markdown, { check: open });
        expect(differingIndexes(markdown, checked)).toHaveLength(open.length);
        expect(parsePlan(checked).tasks.every((task) => task.done)).toBe(true);
        const unchecked = updatePlan(markdown, { uncheck: done });
        expect(differingIndexes(markdown, unchecked)).toHaveLength(done.length);
        expect(parsePlan(unchecked).tasks.some((task) => task.done)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe("updatePlan errors", () => {
  it("rejects unknown ids, suggesting the nearest one, and changes nothing", () => {
    const error = updateError(seedExamplePlan, { check: ["TASK-001", "TASK-01", "deploy"] });
    expect(error.code).toBe("PLAN_UPDATE_ERROR");
    expect(error.unknownIds).toEqual(["TASK-01", "deploy"]);
    expect(error.issues).toEqual([
      {
        kind: "unknown-id",
        id: "TASK-01",
        suggestion: "TASK-001",
        message: 'Unknown task id "TASK-01": did you mean "TASK-001"?',
      },
      {
        kind: "unknown-id",
        id: "deploy",
        message: 'Unknown task id "deploy": the plan has no task with this id',
      },
    ]);
    expect(error.message).toBe(
      'Cannot update plan.md (2 problems):\n  Unknown task id "TASK-01": did you mean "TASK-001"?\n  Unknown task id "deploy": the plan has no task with this id',
    );
  });

  it("suggests the exact id for a differently-cased one", () => {
    expect(updateError(seedExamplePlan, { uncheck: ["task-003"] }).issues[0]?.suggestion).toBe(
      "TASK-003",
    );
  });

  it("is recognised across copies of the package and is a LoopError", () => {
    const error = updateError(seedExamplePlan, { check: ["nope"] });
    expect(LoopError.isInstance(error)).toBe(true);
    expect(error.name).toBe("PlanUpdateError");
    expect(PlanUpdateError.isInstance({ [Symbol.for("loop.error.PlanUpdateError")]: true })).toBe(
      true,
    );
    expect(PlanUpdateError.isInstance(new Error("nope"))).toBe(false);
  });

  it("rejects an id both checked and unchecked", () => {
    const error = updateError(seedExamplePlan, { check: ["TASK-001"], uncheck: ["TASK-001"] });
    expect(error.issues).toEqual([
      {
        kind: "conflicting-id",
        id: "TASK-001",
        message: 'Task id "TASK-001" is in both check and uncheck; give it in only one of them',
      },
    ]);
    expect(error.unknownIds).toEqual([]);
  });

  it("rejects ids of items that are not tasks (requirements, quotes)", () => {
    const plan = "- [ ] TASK-1 a\n> - [ ] TASK-2 quoted\n## Acceptance Criteria\n- [ ] REQ-1 b\n";
    expect(updateError(plan, { check: ["TASK-2", "REQ-1"] }).unknownIds).toEqual([
      "TASK-2",
      "REQ-1",
    ]);
  });

  it("throws the plan's PlanParseError when the plan itself is invalid", () => {
    const plan = "- [ ] TASK-1 a\n- [ ] TASK-1 b\n";
    expect(() => updatePlan(plan, { check: ["TASK-1"] })).toThrow(PlanParseError);
  });

  it("rejects invalid status values", () => {
    const error = updateError(seedExamplePlan, {
      status: {
        completionIndicators: -1,
        currentTask: "two\nlines",
        fields: { EXIT_SIGNAL: "maybe", "bad:key": "x" },
      },
    });
    expect(error.issues.map((issue) => issue.kind)).toEqual([
      "invalid-status",
      "invalid-status",
      "invalid-status",
      "invalid-status",
    ]);
    expect(error.issues.map((issue) => issue.message)).toEqual([
      "completionIndicators must be a whole number, 0 or more, got -1",
      'currentTask must be one line of text or null, got "two\\nlines"',
      'Status value of "EXIT_SIGNAL" must be true or false (yes and no are accepted too), got "maybe"',
      'Status key "bad:key" must start with a letter and hold only letters, digits, spaces, "_" and "-"',
    ]);
  });

  it("rejects a key given both as a property and in fields", () => {
    const error = updateError(seedExamplePlan, {
      status: { exitSignal: true, fields: { "exit signal": "true" } },
    });
    expect(error.issues[0]?.message).toMatch(/given twice/);
  });
});

describe("updatePlan on RALPH_STATUS", () => {
  it("replaces only the values' characters", () => {
    const updated = updatePlan(seedExamplePlan, {
      status: { exitSignal: true, completionIndicators: 3, currentTask: "TASK-005" },
    });
    expect(updated).toBe(
      seedExamplePlan
        .replace("EXIT_SIGNAL: false", "EXIT_SIGNAL: true")
        .replace("completion_indicators: 0", "completion_indicators: 3")
        .replace("current_task: TASK-001", "current_task: TASK-005"),
    );
    expect(parsePlan(updated).status).toMatchObject({
      exitSignal: true,
      completionIndicators: 3,
      currentTask: "TASK-005",
    });
  });

  it("keeps the key's spelling and the emphasis around the value", () => {
    const plan = "## RALPH STATUS\n* **Exit Signal**: **no**  \n* `current-task`: `TASK-1`\n";
    expect(updatePlan(plan, { status: { exitSignal: true, currentTask: null } })).toBe(
      "## RALPH STATUS\n* **Exit Signal**: **true**  \n* `current-task`: `none`\n",
    );
  });

  it("leaves a value that already means the same alone", () => {
    const plan = "## RALPH_STATUS\n- EXIT_SIGNAL: YES\n- current_task: -\n";
    expect(updatePlan(plan, { status: { exitSignal: true, currentTask: null } })).toBe(plan);
  });

  it("fills an empty value", () => {
    expect(updatePlan("## RALPH_STATUS\n- EXIT_SIGNAL:\n", { status: { exitSignal: false } })).toBe(
      "## RALPH_STATUS\n- EXIT_SIGNAL: false\n",
    );
  });

  it("adds a missing key after the last entry with the same bullet, indentation and line ending", () => {
    const plan =
      "# P\r\n\r\n## RALPH_STATUS\r\n  * EXIT_SIGNAL: false\r\n\r\n## Tasks\r\n- [ ] TASK-1 a\r\n";
    expect(
      updatePlan(plan, {
        status: { completionIndicators: 2, currentTask: "TASK-1", fields: { Notes: "ok" } },
      }),
    ).toBe(
      "# P\r\n\r\n## RALPH_STATUS\r\n  * EXIT_SIGNAL: false\r\n  * completion_indicators: 2\r\n  * current_task: TASK-1\r\n  * Notes: ok\r\n\r\n## Tasks\r\n- [ ] TASK-1 a\r\n",
    );
  });

  it("continues the numbering of an ordered status list", () => {
    expect(
      updatePlan("## RALPH_STATUS\n1) EXIT_SIGNAL: false", { status: { completionIndicators: 1 } }),
    ).toBe("## RALPH_STATUS\n1) EXIT_SIGNAL: false\n2) completion_indicators: 1");
  });

  it("adds entries under an empty section's heading", () => {
    expect(
      updatePlan("# P\n\n## RALPH_STATUS\n\n## Tasks\n", { status: { exitSignal: true } }),
    ).toBe("# P\n\n## RALPH_STATUS\n\n- EXIT_SIGNAL: true\n\n## Tasks\n");
  });

  it("adds the section after the title, with the file's dominant line ending", () => {
    const plan = "# Feature\r\n\r\n## Tasks\r\n- [ ] TASK-1 a\r\n";
    expect(
      updatePlan(plan, {
        check: ["TASK-1"],
        status: { exitSignal: false, completionIndicators: 0 },
      }),
    ).toBe(
      "# Feature\r\n\r\n## RALPH_STATUS\r\n\r\n- EXIT_SIGNAL: false\r\n- completion_indicators: 0\r\n\r\n## Tasks\r\n- [x] TASK-1 a\r\n",
    );
  });

  it("adds the section after the title's own text, so that it holds nothing but its entries", () => {
    expect(updatePlan("# T\nSome text\n", { status: { exitSignal: true } })).toBe(
      "# T\nSome text\n\n## RALPH_STATUS\n\n- EXIT_SIGNAL: true\n",
    );
    expect(
      updatePlan("# T\nIntro\n### Phase 1\n- [ ] a\n## Tasks\n- [ ] b\n", {
        status: { exitSignal: true },
      }),
    ).toBe(
      "# T\nIntro\n### Phase 1\n- [ ] a\n\n## RALPH_STATUS\n\n- EXIT_SIGNAL: true\n\n## Tasks\n- [ ] b\n",
    );
  });

  it("adds the section at the end of a plan without title, after its tasks", () => {
    expect(updatePlan("\uFEFF- [ ] TASK-1 a\n", { status: { currentTask: "TASK-1" } })).toBe(
      "\uFEFF- [ ] TASK-1 a\n\n## RALPH_STATUS\n\n- current_task: TASK-1\n",
    );
    expect(updatePlan("- [ ] TASK-1 a", { status: { currentTask: "TASK-1" } })).toBe(
      "- [ ] TASK-1 a\n\n## RALPH_STATUS\n\n- current_task: TASK-1\n",
    );
    expect(updatePlan("## Notes\n- [ ] a\n", { status: { exitSignal: true } })).toBe(
      "## RALPH_STATUS\n\n- EXIT_SIGNAL: true\n\n## Notes\n- [ ] a\n",
    );
    expect(updatePlan("", { status: { exitSignal: true } })).toBe(
      "## RALPH_STATUS\n\n- EXIT_SIGNAL: true\n",
    );
  });

  it("adds the section before a code block that ends the plan, which may be unclosed", () => {
    expect(updatePlan("# P\n- [ ] a\n```\n# x\n", { status: { exitSignal: true } })).toBe(
      "# P\n- [ ] a\n\n## RALPH_STATUS\n\n- EXIT_SIGNAL: true\n\n```\n# x\n",
    );
  });

  it("never changes what the tasks are when it adds the section (issue 13, item 9)", () => {
    const plans = [
      "# Plan\n- [ ] TASK-1 Design schema\n",
      "# Plan\n\n- [ ] TASK-1 a\n- [x] TASK-2 b\n\n### Later\n- [ ] c\n",
      "Plan\n====\n- [ ] TASK-1 a\r\n",
      "- [ ] TASK-1 a\n- [ ] TASK-2 b\n",
      "Intro.\n\n# Plan\n- [ ] a\n## Tasks\n- [ ] b\n",
      "# Plan\n- [ ] a\n<!--\n- [ ] not a task\n",
      "# Plan\n## Acceptance Criteria\n- [ ] works\n",
    ];
    for (const plan of plans) {
      const updated = updatePlan(plan, { status: { exitSignal: false, currentTask: "a" } });
      expect(parsePlan(updated).tasks).toEqual(
        parsePlan(plan).tasks.map((task) => ({
          ...task,
          line: expect.any(Number),
          endLine: expect.any(Number),
        })),
      );
      expect(parsePlan(updated).requirements.map((item) => item.text)).toEqual(
        parsePlan(plan).requirements.map((item) => item.text),
      );
      expect(parsePlan(updated).status).toMatchObject({ exitSignal: false, currentTask: "a" });
    }
  });

  it("writes values that parsePlan reads back", () => {
    const updated = updatePlan(seedExamplePlan, {
      status: { exitSignal: true, fields: { completion_indicators: "7", "Last Run": "today" } },
    });
    expect(parsePlan(updated).status).toMatchObject({
      exitSignal: true,
      completionIndicators: 7,
      fields: { "Last Run": "today" },
    });
  });
});

describe("updatePlan input checks", () => {
  it("rejects a non-string plan and ids that are not a list of strings", () => {
    expect(() => updatePlan(undefined as unknown as string, {})).toThrow(
      "A plan must be markdown text (a string), got undefined",
    );
    expect(() => updatePlan("- [ ] a\n", { check: "a" as unknown as string[] })).toThrow(
      "updatePlan: check must be a list of task ids (strings)",
    );
  });
});
