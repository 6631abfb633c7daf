import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createInitialState } from "../state/initial-state.js";
import type { LoopState } from "../state/loop-state.js";
import { KEPT_DELETED_COMPLETIONS, withCompletedFromPlan, withIds } from "./loop-state-update.js";
import type { PlanView } from "./plan-view.js";

/** withCompletedFromPlan as it was first written (three sets), to compare the one-map version. */
function reference(state: LoopState, view: Pick<PlanView, "tasks">): LoopState {
  const done: string[] = [];
  const planIds = new Set<string>();
  for (const task of view.tasks) {
    planIds.add(task.id);
    if (task.done) done.push(task.id);
  }
  const doneIds = new Set(done);
  const deleted = state.completed_tasks.filter((id) => !planIds.has(id));
  const keptDeleted = new Set(deleted.slice(-KEPT_DELETED_COMPLETIONS));
  const next: LoopState = {
    ...state,
    completed_tasks: withIds(
      state.completed_tasks.filter((id) => doneIds.has(id) || keptDeleted.has(id)),
      done,
    ),
  };
  const attempts = state.task_attempts;
  if (attempts === undefined) return next;
  const ids = Object.keys(attempts);
  if (ids.every((id) => planIds.has(id))) return next;
  return {
    ...next,
    task_attempts: Object.fromEntries(
      ids.filter((id) => planIds.has(id)).map((id) => [id, attempts[id] ?? 0]),
    ),
  };
}

const base = createInitialState({ planPath: "plan.md", now: "2026-01-01T00:00:00Z" });

/** Ids from a small pool, so plans and lists share some, repeat some and miss some. */
const id = fc.integer({ min: 0, max: 40 }).map((n) => (n === 40 ? "constructor" : `T-${n}`));

/** Ids the plan may no longer list: enough of them to pass the cap on kept deletions. */
const anyId = fc.oneof(
  id,
  fc.integer({ min: 41, max: 400 }).map((n) => `T-${n}`),
);

const cases = fc.record({
  tasks: fc.array(fc.record({ id, done: fc.boolean() }), { maxLength: 60, size: "max" }),
  completed: fc.array(anyId, { maxLength: 300, size: "max" }),
  attempts: fc.option(fc.dictionary(id, fc.nat(5), { maxKeys: 10 }), { nil: undefined }),
});

function viewOf(tasks: readonly { id: string; done: boolean }[]): Pick<PlanView, "tasks"> {
  return {
    tasks: tasks.map((task, index) => ({
      ...task,
      title: task.id,
      line: index + 1,
      column: 1,
      endLine: index + 1,
      depth: 0,
      optional: false,
      idSource: "explicit" as const,
    })),
  };
}

describe("withCompletedFromPlan", () => {
  it("gives what the three-set version gives, on generated plans and states", () => {
    fc.assert(
      fc.property(cases, ({ tasks, completed, attempts }) => {
        const state: LoopState = {
          ...base,
          completed_tasks: completed,
          ...(attempts === undefined ? {} : { task_attempts: attempts }),
        };
        const view = viewOf(tasks) as PlanView;
        expect(withCompletedFromPlan(state, view)).toEqual(reference(state, view));
      }),
      { numRuns: 2000, seed: 20_261_201 },
    );
  });

  it("keeps completion order, appends newly checked tasks in plan order, keeps recent deletions", () => {
    const state: LoopState = { ...base, completed_tasks: ["B", "gone", "A", "open"] };
    const view = viewOf([
      { id: "A", done: true },
      { id: "open", done: false },
      { id: "C", done: true },
      { id: "B", done: true },
    ]) as PlanView;
    expect(withCompletedFromPlan(state, view).completed_tasks).toEqual(["B", "gone", "A", "C"]);
  });
});
