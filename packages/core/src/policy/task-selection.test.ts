import { describe, expect, it } from "vitest";
import { parsePrd } from "../plan/prd/parse-prd.js";
import { type SelectableTask, selectNextTask, type TaskSelection } from "./task-selection.js";

const open = (id: string, extra: Partial<SelectableTask> = {}): SelectableTask => ({
  id,
  done: false,
  ...extra,
});
const done = (id: string, extra: Partial<SelectableTask> = {}): SelectableTask => ({
  id,
  done: true,
  ...extra,
});

interface Case {
  readonly name: string;
  readonly tasks: readonly SelectableTask[];
  readonly attempts?: Readonly<Record<string, number>>;
  readonly failedTaskIds?: readonly string[];
  readonly maxAttempts?: number;
  readonly expected: {
    readonly kind: TaskSelection["kind"];
    readonly task?: string;
    readonly attempt?: number;
    readonly skipped: TaskSelection["skipped"];
    readonly newlyFailed: readonly string[];
  };
}

/** The selection as plain data: the chosen task's id instead of the task object. */
function summary(selection: TaskSelection): Case["expected"] {
  return selection.kind === "task"
    ? {
        kind: selection.kind,
        task: selection.task.id,
        attempt: selection.attempt,
        skipped: selection.skipped,
        newlyFailed: selection.newlyFailed,
      }
    : { kind: selection.kind, skipped: selection.skipped, newlyFailed: selection.newlyFailed };
}

function select(
  tasks: readonly SelectableTask[],
  options: Partial<Pick<Case, "attempts" | "failedTaskIds" | "maxAttempts">> = {},
) {
  return selectNextTask({
    tasks,
    attempts: options.attempts ?? {},
    failedTaskIds: options.failedTaskIds ?? [],
    maxAttempts: options.maxAttempts ?? 3,
  });
}

const cases: Case[] = [
  {
    name: "picks the first open task in plan order, attempt 1",
    tasks: [open("TASK-002"), open("TASK-001")],
    expected: { kind: "task", task: "TASK-002", attempt: 1, skipped: [], newlyFailed: [] },
  },
  {
    name: "skips done tasks without reporting them",
    tasks: [done("TASK-001"), done("TASK-002"), open("TASK-003")],
    expected: { kind: "task", task: "TASK-003", attempt: 1, skipped: [], newlyFailed: [] },
  },
  {
    name: "attempts below the maximum: the attempt number is attempts + 1",
    tasks: [open("TASK-001"), open("TASK-002")],
    attempts: { "TASK-001": 2 },
    expected: { kind: "task", task: "TASK-001", attempt: 3, skipped: [], newlyFailed: [] },
  },
  {
    name: "attempts at the maximum: newly failed, skipped, the next task runs",
    tasks: [open("TASK-001"), open("TASK-002")],
    attempts: { "TASK-001": 3, "TASK-002": 1 },
    expected: {
      kind: "task",
      task: "TASK-002",
      attempt: 2,
      skipped: [{ id: "TASK-001", reason: "failed" }],
      newlyFailed: ["TASK-001"],
    },
  },
  {
    name: "attempts above the maximum count as failed too",
    tasks: [open("TASK-001"), open("TASK-002")],
    attempts: { "TASK-001": 7 },
    expected: {
      kind: "task",
      task: "TASK-002",
      attempt: 1,
      skipped: [{ id: "TASK-001", reason: "failed" }],
      newlyFailed: ["TASK-001"],
    },
  },
  {
    name: "a failure already in failed_tasks is skipped but not reported again",
    tasks: [open("TASK-001"), open("TASK-002")],
    attempts: { "TASK-001": 3 },
    failedTaskIds: ["TASK-001"],
    expected: {
      kind: "task",
      task: "TASK-002",
      attempt: 1,
      skipped: [{ id: "TASK-001", reason: "failed" }],
      newlyFailed: [],
    },
  },
  {
    name: "a task in failed_tasks is skipped even with attempts left",
    tasks: [open("TASK-001"), open("TASK-002")],
    attempts: { "TASK-001": 1 },
    failedTaskIds: ["TASK-001"],
    expected: {
      kind: "task",
      task: "TASK-002",
      attempt: 1,
      skipped: [{ id: "TASK-001", reason: "failed" }],
      newlyFailed: [],
    },
  },
  {
    name: "a task in failed_tasks that is now done is neither failed nor skipped",
    tasks: [done("TASK-001"), open("TASK-002", { dependencies: ["TASK-001"] })],
    attempts: { "TASK-001": 3 },
    failedTaskIds: ["TASK-001"],
    expected: { kind: "task", task: "TASK-002", attempt: 1, skipped: [], newlyFailed: [] },
  },
  {
    name: "newlyFailed lists every exhausted task, also those after the chosen one",
    tasks: [open("TASK-001"), open("TASK-002")],
    attempts: { "TASK-002": 3 },
    expected: {
      kind: "task",
      task: "TASK-001",
      attempt: 1,
      skipped: [],
      newlyFailed: ["TASK-002"],
    },
  },
  {
    name: "an optional task is picked when plan order reaches it",
    tasks: [done("TASK-001"), open("TASK-009", { optional: true }), open("TASK-002")],
    expected: { kind: "task", task: "TASK-009", attempt: 1, skipped: [], newlyFailed: [] },
  },
  {
    name: "a task whose dependency is open waits; the dependency runs first",
    tasks: [open("B", { dependencies: ["A"] }), open("A")],
    expected: {
      kind: "task",
      task: "A",
      attempt: 1,
      skipped: [{ id: "B", reason: "dependency_pending" }],
      newlyFailed: [],
    },
  },
  {
    name: "a task whose dependency failed can never run",
    tasks: [open("A"), open("B", { dependencies: ["A"] }), open("C")],
    attempts: { A: 3 },
    expected: {
      kind: "task",
      task: "C",
      attempt: 1,
      skipped: [
        { id: "A", reason: "failed" },
        { id: "B", reason: "dependency_failed" },
      ],
      newlyFailed: ["A"],
    },
  },
  {
    name: "a dependency on an unknown id counts as failed",
    tasks: [open("B", { dependencies: ["NOPE"] }), open("C")],
    expected: {
      kind: "task",
      task: "C",
      attempt: 1,
      skipped: [{ id: "B", reason: "dependency_failed" }],
      newlyFailed: [],
    },
  },
  {
    name: "chain A ← B ← C with C failed: nothing can run → none",
    tasks: [open("A", { dependencies: ["B"] }), open("B", { dependencies: ["C"] }), open("C")],
    failedTaskIds: ["C"],
    expected: {
      kind: "none",
      skipped: [
        { id: "A", reason: "dependency_pending" },
        { id: "B", reason: "dependency_failed" },
        { id: "C", reason: "failed" },
      ],
      newlyFailed: [],
    },
  },
  {
    name: "every required task done, an optional one failed → wrap_up",
    tasks: [done("TASK-001"), done("TASK-002"), open("TASK-009", { optional: true })],
    attempts: { "TASK-009": 3 },
    expected: {
      kind: "wrap_up",
      skipped: [{ id: "TASK-009", reason: "failed" }],
      newlyFailed: ["TASK-009"],
    },
  },
  {
    name: "every task done → wrap_up",
    tasks: [done("TASK-001"), done("TASK-002")],
    expected: { kind: "wrap_up", skipped: [], newlyFailed: [] },
  },
  {
    name: "an empty plan → wrap_up",
    tasks: [],
    expected: { kind: "wrap_up", skipped: [], newlyFailed: [] },
  },
  {
    name: "required tasks open but every one failed → none",
    tasks: [done("TASK-001"), open("TASK-002"), open("TASK-003")],
    attempts: { "TASK-002": 3 },
    failedTaskIds: ["TASK-003"],
    expected: {
      kind: "none",
      skipped: [
        { id: "TASK-002", reason: "failed" },
        { id: "TASK-003", reason: "failed" },
      ],
      newlyFailed: ["TASK-002"],
    },
  },
  {
    name: "max_attempts: 1 fails a task after its single attempt",
    tasks: [open("TASK-001"), open("TASK-002")],
    attempts: { "TASK-001": 1 },
    maxAttempts: 1,
    expected: {
      kind: "task",
      task: "TASK-002",
      attempt: 1,
      skipped: [{ id: "TASK-001", reason: "failed" }],
      newlyFailed: ["TASK-001"],
    },
  },
];

describe("selectNextTask", () => {
  it.each(cases)("$name", ({ tasks, attempts, failedTaskIds, maxAttempts, expected }) => {
    const options = {
      ...(attempts ? { attempts } : {}),
      ...(failedTaskIds ? { failedTaskIds } : {}),
      ...(maxAttempts ? { maxAttempts } : {}),
    };
    expect(summary(select(tasks, options))).toEqual(expected);
  });

  it("returns the caller's own task object, extra fields included", () => {
    const tasks = [{ id: "TASK-001", done: false, title: "Design the schema", line: 7 }];
    const selection = selectNextTask({ tasks, attempts: {}, failedTaskIds: [], maxAttempts: 3 });
    expect(selection.kind === "task" && selection.task).toBe(tasks[0]);
  });

  it("the ralph-loop rule: three attempts at a task, then move on to the next", () => {
    const tasks = [open("STORY-1"), open("STORY-2")];
    const attempts: Record<string, number> = {};
    let failedTaskIds: string[] = [];
    const ran: string[] = [];
    // The engine's loop: select, record newly failed tasks, run the task (it keeps failing).
    for (let iteration = 0; iteration < 4; iteration += 1) {
      const selection = select(tasks, { attempts, failedTaskIds });
      failedTaskIds = [...failedTaskIds, ...selection.newlyFailed];
      if (selection.kind !== "task") break;
      ran.push(`${selection.task.id}#${selection.attempt}`);
      attempts[selection.task.id] = (attempts[selection.task.id] ?? 0) + 1;
    }
    expect(ran).toEqual(["STORY-1#1", "STORY-1#2", "STORY-1#3", "STORY-2#1"]);
    expect(failedTaskIds).toEqual(["STORY-1"]);
  });

  it("attempts 0, 1 and 2 pick the task; 3 skips it and reports it once", () => {
    const tasks = [open("STORY-1"), open("STORY-2")];
    const picked = [0, 1, 2, 3].map((count) => {
      const selection = select(tasks, { attempts: { "STORY-1": count } });
      return selection.kind === "task" ? [selection.task.id, selection.newlyFailed] : null;
    });
    expect(picked).toEqual([
      ["STORY-1", []],
      ["STORY-1", []],
      ["STORY-1", []],
      ["STORY-2", ["STORY-1"]],
    ]);
    const recorded = select(tasks, { attempts: { "STORY-1": 3 }, failedTaskIds: ["STORY-1"] });
    expect(recorded.newlyFailed).toEqual([]);
  });
});

describe("selectNextTask on prd.json stories", () => {
  const prdJson = `{
  "project": "todo-api",
  "stories": [
    { "id": "S1", "title": "Create the Todo model", "passes": false, "dependencies": [] },
    { "id": "S2", "title": "List todos", "passes": false, "dependencies": ["S1"] },
    { "id": "S3", "title": "Health endpoint", "passes": false },
    { "id": "S4", "title": "Delete todos", "passes": false, "dependsOn": ["S2"] }
  ],
  "completedStories": 0
}`;

  /** prd stories as task selection sees them. */
  function storiesOf(json: string): SelectableTask[] {
    return parsePrd(json).stories.map((story) => ({
      id: story.id,
      done: story.passes,
      dependencies: story.dependencies,
    }));
  }

  function markPassing(json: string, id: string): string {
    return json.replace(new RegExp(`("id": "${id}", "title": "[^"]*", "passes": )false`), "$1true");
  }

  it("works through the stories one per iteration, each once its dependencies pass", () => {
    let json = prdJson;
    const order: string[] = [];
    for (let iteration = 0; iteration < 5; iteration += 1) {
      const selection = select(storiesOf(json));
      if (selection.kind !== "task") {
        expect(selection.kind).toBe("wrap_up");
        break;
      }
      order.push(selection.task.id);
      json = markPassing(json, selection.task.id);
    }
    expect(order).toEqual(["S1", "S2", "S3", "S4"]);
  });

  it("reports why each story was passed over", () => {
    const afterS1 = markPassing(prdJson, "S1");
    expect(summary(select(storiesOf(afterS1), { attempts: { S2: 3 } }))).toEqual({
      kind: "task",
      task: "S3",
      attempt: 1,
      skipped: [{ id: "S2", reason: "failed" }],
      newlyFailed: ["S2"],
    });
    expect(
      summary(select(storiesOf(afterS1), { attempts: { S2: 3 }, failedTaskIds: ["S2"] })),
    ).toMatchObject({ kind: "task", task: "S3" });
    const afterS3 = markPassing(afterS1, "S3");
    expect(summary(select(storiesOf(afterS3), { failedTaskIds: ["S2"] }))).toEqual({
      kind: "none",
      skipped: [
        { id: "S2", reason: "failed" },
        { id: "S4", reason: "dependency_failed" },
      ],
      newlyFailed: [],
    });
  });

  it("a story listed before its dependency waits for it (dependency_pending)", () => {
    const json = `{
  "stories": [
    { "id": "S2", "title": "List todos", "passes": false, "dependencies": ["S1"] },
    { "id": "S1", "title": "Create the Todo model", "passes": false }
  ]
}`;
    expect(summary(select(storiesOf(json)))).toEqual({
      kind: "task",
      task: "S1",
      attempt: 1,
      skipped: [{ id: "S2", reason: "dependency_pending" }],
      newlyFailed: [],
    });
    expect(summary(select(storiesOf(markPassing(json, "S1"))))).toEqual({
      kind: "task",
      task: "S2",
      attempt: 1,
      skipped: [],
      newlyFailed: [],
    });
  });
});
