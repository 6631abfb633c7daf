import { type Logger, type PlanSource, parsePlan, type StateStore, updatePlan } from "@loop/core";
import { MemoryLogger, MemoryStateStore, memoryPlan } from "@loop/memory";
import { describe, expect, it } from "vitest";

// The code under test: a fake agent of your own that does one task per call. It checks the
// plan's first open box, saves its progress and logs the iteration; false when all is done.
async function runIteration(
  plan: PlanSource,
  store: StateStore,
  logger: Logger,
  iteration: number,
): Promise<boolean> {
  const markdown = await plan.read();
  const task = parsePlan(markdown).tasks.find((candidate) => !candidate.done);
  if (task === undefined) return false;
  await plan.write(updatePlan(markdown, { check: [task.id] }));
  await store.set("default", "loop_state", JSON.stringify({ iteration, current_task_id: task.id }));
  await logger.log({
    terminal_id: "default",
    event: "iteration_end",
    payload: {
      iteration,
      tasks_completed: [task.id],
      tasks_failed: [],
      should_exit: false,
      exit_reason: null,
    },
    timestamp: new Date().toISOString(),
  });
  return true;
}

describe("runIteration", () => {
  it("checks one task per iteration, keeps the state and logs each iteration", async () => {
    const plan = memoryPlan("# Plan\n\n- [ ] TASK-001 Parse the plan\n- [ ] TASK-002 Write docs\n");
    const store = new MemoryStateStore();
    const logger = new MemoryLogger();

    let iteration = 1;
    while (await runIteration(plan, store, logger, iteration)) iteration += 1;

    expect(plan.text).toBe("# Plan\n\n- [x] TASK-001 Parse the plan\n- [x] TASK-002 Write docs\n");
    expect(plan.writes).toHaveLength(2);
    expect(logger.ofType("iteration_end").map((event) => event.payload)).toMatchObject([
      { iteration: 1, tasks_completed: ["TASK-001"] },
      { iteration: 2, tasks_completed: ["TASK-002"] },
    ]);
    // What the store really holds: the last state, and the one before it as the backup.
    expect(store.snapshot()).toEqual({
      default: {
        loop_state: {
          current: '{"iteration":2,"current_task_id":"TASK-002"}',
          backup: '{"iteration":1,"current_task_id":"TASK-001"}',
        },
      },
    });
  });

  it("starts from what a crashed run left: a corrupt state and a stale lock", async () => {
    const store = new MemoryStateStore({ isProcessAlive: (holder) => holder.pid !== 4242 });
    // Write the raw backend to plant what a crash leaves behind.
    store.documents.set(
      "default",
      new Map([["loop_state", { current: '{"iteration": 1, "curr', backup: '{"iteration":1}' }]]),
    );
    store.locks.set("default", { pid: 4242, host: "ci", startedAt: "2026-03-14T10:00:00Z" });

    const lock = await store.lock("default");
    expect(lock.takenOverFrom?.pid).toBe(4242);
    expect(await store.get("default", "loop_state")).toBe('{"iteration": 1, "curr');
    expect(await store.get("default", "loop_state", "backup")).toBe('{"iteration":1}');
    await lock.release();
  });
});
