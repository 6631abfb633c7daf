import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePlan } from "../plan/parse-plan.js";
import { taskDependencies } from "../plan/task-dependencies.js";
import { type SchedulableTask, scheduleTasks } from "./schedule-tasks.js";
import { selectNextTask } from "./task-selection.js";

/** The tasks of a markdown plan, each with what it comes after. */
function planTasks(markdown: string): SchedulableTask[] {
  const tasks = parsePlan(markdown).tasks;
  const after = taskDependencies(tasks);
  return tasks.map((task) => ({ ...task, after: after.get(task.id) ?? [] }));
}

const none = { attempts: {}, failedTaskIds: [], maxAttempts: 3 } as const;

function started(tasks: readonly SchedulableTask[], running: string[], slots: number, more = {}) {
  return scheduleTasks({ ...none, tasks, running: new Set(running), slots, ...more }).start.map(
    (entry) => entry.task.id,
  );
}

const parallelPlan = `# Plan

## Setup

- [ ] A-1 Create the schema

## Endpoints (parallel)

- [ ] B-1 Users endpoint
  - [ ] B-2 Its tests
- [ ] C-1 Orders endpoint
- [ ] D-1 Items endpoint

## Wrap-up

- [ ] E-1 Document the API
`;

describe("scheduleTasks on a markdown plan", () => {
  it("runs a plan without a parallel section one task at a time, whatever the slots", () => {
    const tasks = planTasks("# Plan\n\n- [ ] T-1 a\n- [ ] T-2 b\n- [ ] T-3 c\n");
    expect(started(tasks, [], 4)).toEqual(["T-1"]);
    expect(started(tasks, ["T-1"], 4)).toEqual([]);
  });

  it("holds what follows an open task even when its own box is checked", () => {
    const tasks = planTasks("- [ ] T-1 a\n- [x] T-2 b\n- [ ] T-3 c\n");
    expect(started(tasks, [], 4)).toEqual(["T-1"]);
  });

  it("starts the units of a parallel section together once what comes before is done", () => {
    const tasks = planTasks(parallelPlan);
    expect(started(tasks, [], 4)).toEqual(["A-1"]);
    const setUp = planTasks(parallelPlan.replace("- [ ] A-1", "- [x] A-1"));
    expect(started(setUp, [], 4)).toEqual(["B-1", "C-1", "D-1"]);
    expect(started(setUp, [], 2)).toEqual(["B-1", "C-1"]);
    expect(started(setUp, ["B-1"], 4)).toEqual(["C-1", "D-1"]);
  });

  it("runs a unit's nested tasks in order, and what follows the section after all of it", () => {
    const done = (ids: string[]) =>
      planTasks(ids.reduce((text, id) => text.replace(`- [ ] ${id}`, `- [x] ${id}`), parallelPlan));
    expect(started(done(["A-1", "B-1", "C-1", "D-1"]), [], 4)).toEqual(["B-2"]);
    expect(started(done(["A-1", "B-1", "B-2", "C-1"]), ["D-1"], 4)).toEqual([]);
    expect(started(done(["A-1", "B-1", "B-2", "C-1", "D-1"]), [], 4)).toEqual(["E-1"]);
  });

  it("lets a task given up release what follows it, as a serial run does", () => {
    const tasks = planTasks("- [ ] T-1 a\n- [ ] T-2 b\n");
    const schedule = scheduleTasks({
      ...none,
      tasks,
      running: new Set(),
      slots: 2,
      failedTaskIds: ["T-1"],
    });
    expect(schedule.start.map((entry) => entry.task.id)).toEqual(["T-2"]);
    expect(schedule.blocked).toEqual(["T-1"]);
  });

  it("reads a chain of 20,000 tasks, all but the last checked, and starts the last", () => {
    const tasks: SchedulableTask[] = Array.from({ length: 20_000 }, (_, index) => ({
      id: `T-${index}`,
      done: index < 19_999,
      after: index === 0 ? [] : [`T-${index - 1}`],
    }));
    expect(started(tasks, [], 2)).toEqual(["T-19999"]);
  });

  it("with one slot and nothing running, picks what selectNextTask picks", () => {
    const line = fc.record({
      done: fc.boolean(),
      parallel: fc.boolean(),
      nested: fc.boolean(),
      attempts: fc.nat({ max: 4 }),
    });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const text = lines
          .map((entry, index) => {
            const heading =
              index % 3 === 0 ? `\n## Part ${index}${entry.parallel ? " (parallel)" : ""}\n\n` : "";
            const indent = entry.nested && index % 3 !== 0 ? "  " : "";
            return `${heading}${indent}- [${entry.done ? "x" : " "}] T-${index} task ${index}`;
          })
          .join("\n");
        const tasks = planTasks(`# Plan\n${text}\n`);
        const attempts = Object.fromEntries(
          lines.map((entry, index) => [`T-${index}`, entry.attempts]),
        );
        const serial = selectNextTask({ tasks, attempts, failedTaskIds: [], maxAttempts: 3 });
        const parallel = scheduleTasks({
          tasks,
          running: new Set(),
          slots: 1,
          attempts,
          failedTaskIds: [],
          maxAttempts: 3,
        });
        expect(parallel.start.map((entry) => entry.task.id)).toEqual(
          serial.kind === "task" ? [serial.task.id] : [],
        );
      }),
      { seed: 20_261_216, numRuns: 500 },
    );
  });
});

describe("scheduleTasks on prd stories (dependencies)", () => {
  const story = (id: string, dependencies: string[], done = false): SchedulableTask => ({
    id,
    done,
    dependencies,
  });

  it("starts stories whose dependencies pass, and never one before them", () => {
    const tasks = [
      story("S-1", []),
      story("S-2", []),
      story("S-3", ["S-1", "S-2"]),
      story("S-4", ["S-1"]),
    ];
    expect(started(tasks, [], 4)).toEqual(["S-1", "S-2"]);
    expect(started([story("S-1", [], true), ...tasks.slice(1)], ["S-2"], 4)).toEqual(["S-4"]);
  });

  it("blocks a story whose dependency was given up or does not exist", () => {
    const tasks = [story("S-1", []), story("S-2", ["S-1"]), story("S-3", ["S-9"])];
    const schedule = scheduleTasks({
      ...none,
      tasks,
      running: new Set(),
      slots: 4,
      failedTaskIds: ["S-1"],
    });
    expect(schedule.start).toEqual([]);
    expect(schedule.blocked).toEqual(["S-1", "S-2", "S-3"]);
  });

  it("gives each started task its attempt number and lists what waits", () => {
    const tasks = [story("S-1", []), story("S-2", ["S-1"])];
    const schedule = scheduleTasks({
      ...none,
      tasks,
      running: new Set(),
      slots: 4,
      attempts: { "S-1": 1 },
    });
    expect(schedule.start).toEqual([{ task: tasks[0], attempt: 2 }]);
    expect(schedule.waiting).toEqual(["S-2"]);
  });
});
