import { describe, expect, it } from "vitest";
import {
  bomPlan,
  crlfPlan,
  fixPlan,
  mixedBulletsPlan,
  nestedPlan,
  notTasksPlan,
  orderedPlan,
  seedExamplePlan,
} from "./fixtures/plan-corpus.js";
import { parsePlan } from "./parse-plan.js";
import { PlanParseError } from "./plan-parse-error.js";

function ids(markdown: string, options?: Parameters<typeof parsePlan>[1]): string[] {
  return parsePlan(markdown, options).tasks.map((task) => task.id);
}

function parseError(markdown: string, file?: string): PlanParseError {
  try {
    parsePlan(markdown, file === undefined ? undefined : { file });
  } catch (error) {
    if (PlanParseError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected parsePlan to throw");
}

describe("parsePlan on the seed's example plan", () => {
  const plan = parsePlan(seedExamplePlan);

  it("finds the five tasks with their ids, titles and lines", () => {
    expect(plan.tasks.map(({ id, title, done, line }) => ({ id, title, done, line }))).toEqual([
      { id: "TASK-001", title: "Design database schema for users table", done: false, line: 11 },
      { id: "TASK-002", title: "Implement password hashing utility", done: false, line: 12 },
      { id: "TASK-003", title: "Create login endpoint", done: false, line: 13 },
      { id: "TASK-004", title: "Write unit tests for auth module", done: false, line: 14 },
      { id: "TASK-005", title: "Verify all tests pass and document API", done: false, line: 15 },
    ]);
  });

  it("gives every task its full shape", () => {
    expect(plan.tasks[0]).toEqual({
      id: "TASK-001",
      title: "Design database schema for users table",
      done: false,
      line: 11,
      column: 1,
      endLine: 11,
      depth: 0,
      optional: false,
      idSource: "explicit",
      section: "Tasks",
    });
  });

  it("reads the RALPH_STATUS section", () => {
    expect(plan.status).toEqual({
      exitSignal: false,
      completionIndicators: 0,
      currentTask: "TASK-001",
      fields: { EXIT_SIGNAL: "false", completion_indicators: "0", current_task: "TASK-001" },
      line: 3,
    });
  });

  it("has no requirements", () => {
    expect(plan.requirements).toEqual([]);
  });
});

describe("parsePlan on an @fix_plan.md without ids", () => {
  const plan = parsePlan(fixPlan);

  it("takes every checkbox under every heading as a task, with derived ids", () => {
    expect(plan.tasks.map((task) => [task.id, task.idSource, task.section])).toEqual([
      ["set-up-basic-project-structure-and-build-system", "derived", "High Priority"],
      ["fix-the-login-bug", "derived", "High Priority"],
      ["add-error-handling-for-the-api-client", "derived", "Medium Priority"],
      ["fix-the-login-bug-2", "derived", "Medium Priority"],
      ["performance-optimization", "derived", "Low Priority"],
      ["project-initialization", "derived", "Completed"],
    ]);
  });

  it("keeps the whole text as the title and ignores plain note bullets", () => {
    expect(plan.tasks[1]?.title).toBe("Fix the login bug");
    expect(plan.tasks.some((task) => task.title.startsWith("Focus"))).toBe(false);
    expect(plan.tasks.at(-1)?.done).toBe(true);
  });
});

describe("what is not a task", () => {
  it("skips items in fenced and indented code, raw HTML, block quotes, status and requirements", () => {
    expect(ids(notTasksPlan)).toEqual(["TASK-070"]);
  });

  it("skips a fence with a tilde marker and an info string", () => {
    expect(ids("~~~markdown\n- [ ] TASK-1 no\n~~~\n- [ ] TASK-2 yes\n")).toEqual(["TASK-2"]);
  });

  it("skips quoted items at any depth of a block quote, even inside a list", () => {
    expect(ids("- [ ] TASK-1 real\n  > - [ ] TASK-2 quoted\n> > - [ ] TASK-3 deep\n")).toEqual([
      "TASK-1",
    ]);
  });

  it("does not take a plain bullet or a bracket that is not a checkbox as a task", () => {
    expect(ids("- TASK-1 plain\n- [y] TASK-2 odd box\n- [] TASK-3 empty box\n- [ ]\n")).toEqual([]);
  });
});

describe("nesting", () => {
  const tasks = parsePlan(nestedPlan).tasks;

  it("gives depth and parentId from the enclosing task items", () => {
    expect(tasks.map((task) => [task.id, task.depth, task.parentId])).toEqual([
      ["EPIC-1", 0, undefined],
      ["STORY-1", 1, "EPIC-1"],
      ["BUG-1", 2, "STORY-1"],
      ["BUG-2", 2, "STORY-1"],
      ["STORY-2", 1, "EPIC-1"],
      ["derived-child-under-plain-parent", 0, undefined],
    ]);
  });

  it("leaves parentId absent, not undefined, on top-level tasks", () => {
    expect(Object.hasOwn(tasks[0] ?? {}, "parentId")).toBe(false);
  });

  it("reports where each item starts and ends", () => {
    expect(tasks[1]).toMatchObject({ line: 4, column: 3, endLine: 6 });
  });
});

describe("bullets and checkboxes", () => {
  it("accepts -, * and + bullets", () => {
    expect(ids(mixedBulletsPlan)).toEqual(["TASK-060", "TASK-061", "TASK-062", "TASK-063"]);
  });

  it("accepts ordered items with . and ) delimiters", () => {
    expect(parsePlan(orderedPlan).tasks.map((task) => [task.id, task.done])).toEqual([
      ["TASK-050", false],
      ["TASK-051", true],
      ["TASK-052", false],
      ["TASK-053", false],
    ]);
  });

  it("reads [x] and [X] as done", () => {
    const tasks = parsePlan("- [x] TASK-1 a\n- [X] TASK-2 b\n- [ ] TASK-3 c\n").tasks;
    expect(tasks.map((task) => task.done)).toEqual([true, true, false]);
  });
});

describe("line endings and byte order mark", () => {
  it("counts lines of a CRLF file correctly", () => {
    const plan = parsePlan(crlfPlan);
    expect(plan.tasks.map((task) => [task.id, task.line, task.column])).toEqual([
      ["TASK-001", 8, 1],
      ["TASK-002", 9, 3],
      ["TASK-003", 10, 1],
      ["untagged-work-item", 11, 1],
    ]);
    expect(plan.status?.completionIndicators).toBe(1);
  });

  it("does not count a byte order mark as a character of line 1", () => {
    const plan = parsePlan(bomPlan);
    expect(plan.tasks.map((task) => [task.id, task.line, task.column, task.done])).toEqual([
      ["TASK-040", 3, 1, false],
      ["TASK-041", 4, 1, true],
    ]);
  });
});

describe("explicit ids", () => {
  it("reads ids in bold or code and drops the separator from the title", () => {
    const plan = parsePlan(
      [
        "- [ ] **TASK-001**: Bold with colon",
        "- [ ] `STORY-7` - Code with dash",
        "- [ ] BUG-12 — Em dash",
        "- [ ] US_2-15. Underscore and period",
        "- [ ] **TASK-002:** Colon inside bold",
        "- [ ] FEAT2-3 Digits in the word",
      ].join("\n"),
    );
    expect(plan.tasks.map((task) => [task.id, task.title])).toEqual([
      ["TASK-001", "Bold with colon"],
      ["STORY-7", "Code with dash"],
      ["BUG-12", "Em dash"],
      ["US_2-15", "Underscore and period"],
      ["TASK-002", "Colon inside bold"],
      ["FEAT2-3", "Digits in the word"],
    ]);
    expect(plan.tasks.every((task) => task.idSource === "explicit")).toBe(true);
  });

  it("does not take lowercase words, glued text or mid-text tokens as ids", () => {
    const plan = parsePlan(
      "- [ ] task-1 lowercase\n- [ ] TASK-1x glued\n- [ ] Fix TASK-9 later\n- [ ] TASK-1.5 version\n",
    );
    expect(plan.tasks.map((task) => task.idSource)).toEqual([
      "derived",
      "derived",
      "derived",
      "derived",
    ]);
  });
});

describe("derived ids", () => {
  const plan = "# Plan\n\n- [ ] Fix the login bug\n- [ ] Write docs\n- [ ] Fix the login bug\n";

  it("are the same on every call", () => {
    expect(ids(plan)).toEqual(ids(plan));
    expect(ids(plan)).toEqual(["fix-the-login-bug", "write-docs", "fix-the-login-bug-2"]);
  });

  it("do not change when another line is edited, checked or added elsewhere", () => {
    const edited = plan
      .replace("Write docs", "Write the user guide")
      .replace("- [ ] Fix the login bug\n- [ ] Write", "- [x] Fix the login bug\n- [ ] Write");
    expect(ids(`${edited}- [ ] A new task at the end\n`)).toEqual([
      "fix-the-login-bug",
      "write-the-user-guide",
      "fix-the-login-bug-2",
      "a-new-task-at-the-end",
    ]);
  });

  it("skip suffixes that another item's id already uses", () => {
    expect(ids("- [ ] Fix bug\n- [ ] Fix bug\n- [ ] Fix bug 2\n")).toEqual([
      "fix-bug",
      "fix-bug-3",
      "fix-bug-2",
    ]);
  });

  it("cut long titles at a word boundary and hash titles without letters", () => {
    const long = "Refactor the configuration loader so that every error points at a line";
    expect(ids(`- [ ] ${long}\n- [ ] 🎉🎉\n`)).toEqual([
      "refactor-the-configuration-loader-so-that-every",
      "task-421c4fd5",
    ]);
  });
});

describe("duplicate explicit ids", () => {
  it("throw a PlanParseError naming both places of each duplicate", () => {
    const error = parseError(
      "# Plan\n\n- [ ] TASK-1 a\n- [ ] TASK-2 b\n  - [ ] TASK-1 again\n- [ ] TASK-2 again\n",
      "plan.md",
    );
    expect(error.code).toBe("PLAN_PARSE_ERROR");
    expect(error.issues).toEqual([
      {
        message:
          'Duplicate task id "TASK-1", first used at 3:1; task ids must be unique, rename one of them',
        line: 5,
        column: 3,
      },
      {
        message:
          'Duplicate task id "TASK-2", first used at 4:1; task ids must be unique, rename one of them',
        line: 6,
        column: 1,
      },
    ]);
    expect(error.message).toContain('plan.md:5:3 Duplicate task id "TASK-1", first used at 3:1');
  });

  it("ignore the same id outside tasks (requirements, quotes)", () => {
    expect(
      ids("- [ ] TASK-1 a\n\n> - [ ] TASK-1 quoted\n\n## Constraints\n- [ ] TASK-1 req\n"),
    ).toEqual(["TASK-1"]);
  });
});

describe("the Tasks heading", () => {
  const plan = `# Plan

## Background
- [ ] Not a task: background checklist

## Tasks
- [ ] TASK-1 In Tasks
### Backend
- [ ] TASK-2 In a sub-heading of Tasks

## Future
- [ ] TASK-3 Optional, outside Tasks

## Appendix
- [ ] Not a task either
`;

  it("restricts tasks to its section (sub-headings included) and optional sections", () => {
    const tasks = parsePlan(plan).tasks;
    expect(tasks.map((task) => [task.id, task.section, task.optional])).toEqual([
      ["TASK-1", "Tasks", false],
      ["TASK-2", "Backend", false],
      ["TASK-3", "Future", true],
    ]);
  });

  it("is matched case-insensitively, ignoring emphasis, numbering and a colon", () => {
    const variant = plan.replace("## Tasks", "## 2. **TASKS:**");
    expect(ids(variant)).toEqual(["TASK-1", "TASK-2", "TASK-3"]);
  });
});

describe("optional headings", () => {
  const plan = `## Tasks
- [ ] TASK-1 Required
### Nice to have
- [ ] TASK-2 Optional sub-heading
#### Details
- [ ] TASK-3 Still optional below it
### Later
- [ ] TASK-4 Required again
`;

  it("mark tasks under the default optional headings, at any level", () => {
    const tasks = parsePlan(plan).tasks;
    expect(tasks.map((task) => [task.id, task.optional])).toEqual([
      ["TASK-1", false],
      ["TASK-2", true],
      ["TASK-3", true],
      ["TASK-4", false],
    ]);
  });

  it("can be replaced by a custom list", () => {
    const tasks = parsePlan(plan, { optionalHeadings: ["later"] }).tasks;
    expect(tasks.map((task) => [task.id, task.optional])).toEqual([
      ["TASK-1", false],
      ["TASK-2", false],
      ["TASK-3", false],
      ["TASK-4", true],
    ]);
  });
});

describe("edge cases", () => {
  it("parses an empty plan", () => {
    expect(parsePlan("")).toEqual({ tasks: [], status: null, requirements: [] });
    expect(parsePlan("\n\n", null)).toEqual({ tasks: [], status: null, requirements: [] });
  });

  it("returns fresh mutable objects on every call", () => {
    const first = parsePlan(seedExamplePlan);
    first.tasks.pop();
    expect(parsePlan(seedExamplePlan).tasks).toHaveLength(5);
  });

  it("parses a plan with 20,000 tasks in 400 sections", { timeout: 120_000 }, () => {
    let plan = "# Huge plan\n\n## Tasks\n";
    for (let index = 0; index < 20_000; index += 1) {
      if (index % 50 === 0) plan += `\n### Phase ${index / 50}\n\n`;
      plan +=
        index % 2 === 0 ? `- [ ] TASK-${index} Task ${index}\n` : `- [x] Item number ${index}\n`;
    }
    const tasks = parsePlan(plan).tasks;
    expect(tasks).toHaveLength(20_000);
    expect(tasks.at(-1)).toMatchObject({
      id: "item-number-19999",
      done: true,
      section: "Phase 399",
    });
    expect(new Set(tasks.map((task) => task.id)).size).toBe(20_000);
  });
});
