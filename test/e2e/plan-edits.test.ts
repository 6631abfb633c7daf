import { rmSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLoop, type PlanSource, runLoop } from "@loop/core";
import { filePlan, PlanNotFoundError } from "@loop/fs";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { afterEach, describe, expect, it } from "vitest";
import { callsOf, checksItsBox, logOf, START, seedPlan } from "./support.js";

describe("scenario 11: the agent adds tasks to the plan mid-run", () => {
  it("runs the new tasks too", async () => {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const addTasks = (text: string) =>
      text.replace(
        "- [ ] TASK-002 Implement password hashing utility\n",
        "- [ ] TASK-002 Implement password hashing utility\n- [ ] TASK-003 Rate-limit login attempts\n- [ ] TASK-004 Document the login API\n",
      );
    const executor = createScriptedExecutor(
      [
        // While doing TASK-001 the agent finds two more tasks and writes them into the plan.
        checksItsBox(plan, completesTask(), addTasks),
        completesTask(),
        completesTask(),
        completesTask({ exitSignal: true }),
      ],
      { clock },
    );
    const logger = new MemoryLogger();

    const result = await runLoop({ plan, executor, store: new MemoryStateStore(), logger, clock });

    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
      { task: "TASK-002", iteration: 2, attempt: 1, kind: "task" },
      { task: "TASK-003", iteration: 3, attempt: 1, kind: "task" },
      { task: "TASK-004", iteration: 4, attempt: 1, kind: "task" },
    ]);
    const all = ["TASK-001", "TASK-002", "TASK-003", "TASK-004"];
    const end = (iteration: number) => [
      "iteration_end",
      {
        iteration,
        tasks_completed: all.slice(0, iteration),
        tasks_failed: [],
        should_exit: iteration === 4,
        exit_reason: iteration === 4 ? "all_tasks_complete" : null,
      },
    ];
    expect(logOf(logger.events)).toEqual([
      ["iteration_start", { iteration: 1, current_task_id: "TASK-001", total_tasks: 2 }],
      end(1),
      ["iteration_start", { iteration: 2, current_task_id: "TASK-002", total_tasks: 4 }],
      end(2),
      ["iteration_start", { iteration: 3, current_task_id: "TASK-003", total_tasks: 4 }],
      end(3),
      ["iteration_start", { iteration: 4, current_task_id: "TASK-004", total_tasks: 4 }],
      end(4),
      [
        "loop_exit",
        {
          total_iterations: 4,
          total_tasks_completed: 4,
          exit_reason: "all_tasks_complete",
          final_state: result.state,
        },
      ],
    ]);
    expect(result).toMatchObject({
      exitReason: "all_tasks_complete",
      complete: true,
      tasksCompleted: all,
    });
    for (const id of all) expect(plan.text).toContain(`- [x] ${id}`);
  });
});

describe("scenario 12: the plan is deleted mid-run", () => {
  let directory = "";
  afterEach(async () => {
    if (directory !== "") await rm(directory, { recursive: true, force: true });
    directory = "";
  });

  /** Runs a two-task loop whose agent deletes the plan while working on TASK-002. */
  async function deleteDuringIteration2(plan: PlanSource, remove: () => void) {
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(
      [
        completesTask(),
        () => {
          remove();
          return completesTask();
        },
      ],
      { clock },
    );
    const logger = new MemoryLogger();
    const result = await runLoop({ plan, executor, store: new MemoryStateStore(), logger, clock });
    return { executor, logger, result };
  }

  function expectPlanError(
    run: Awaited<ReturnType<typeof deleteDuringIteration2>>,
    message: string,
  ): void {
    const { executor, logger, result } = run;
    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
      { task: "TASK-002", iteration: 2, attempt: 1, kind: "task" },
    ]);
    expect(logOf(logger.events)).toEqual([
      ["iteration_start", { iteration: 1, current_task_id: "TASK-001", total_tasks: 2 }],
      [
        "iteration_end",
        {
          iteration: 1,
          tasks_completed: ["TASK-001"],
          tasks_failed: [],
          should_exit: false,
          exit_reason: null,
        },
      ],
      ["iteration_start", { iteration: 2, current_task_id: "TASK-002", total_tasks: 2 }],
      [
        "error",
        {
          error_type: "PlanNotFoundError",
          error_message: message,
          // It happened in iteration 2, while the agent worked on TASK-002.
          iteration: 2,
          current_task_id: "TASK-002",
          traceback: expect.any(String),
        },
      ],
      [
        "loop_exit",
        {
          total_iterations: 1,
          total_tasks_completed: 1,
          exit_reason: "plan_error",
          final_state: result.state,
        },
      ],
    ]);
    expect(result).toMatchObject({
      exitReason: "plan_error",
      complete: false,
      tasksCompleted: ["TASK-001"],
    });
    expect(PlanNotFoundError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toBe(message);
    expect(result.state?.run).toMatchObject({ status: "exited", exit_reason: "plan_error" });
  }

  it("filePlan with the file removed: plan_error with an error event", async () => {
    directory = await mkdtemp(join(tmpdir(), "loop-e2e-plan-"));
    const planPath = join(directory, "plan.md");
    await writeFile(planPath, seedPlan(2));
    const run = await deleteDuringIteration2(filePlan(planPath), () => rmSync(planPath));
    expectPlanError(run, `Plan file not found: ${planPath}`);
  });

  it("a memory plan whose read throws once deleted: plan_error with an error event", async () => {
    const inner = memoryPlan(seedPlan(2), { path: "plan.md" });
    let deleted = false;
    const plan: PlanSource = {
      path: inner.path,
      read: async () => {
        if (deleted) throw new PlanNotFoundError({ path: "plan.md" });
        return inner.read();
      },
      write: (text) => inner.write(text),
    };
    const run = await deleteDuringIteration2(plan, () => {
      deleted = true;
    });
    expectPlanError(run, "Plan file not found: plan.md");
  });

  it("deleted between iterations: the error names the finished iterations and the next task, not the finished one", async () => {
    // The user deletes the plan right after iteration 1 ends; the loop finds out when it
    // reads the plan for iteration 2, before that iteration starts.
    const inner = memoryPlan(seedPlan(2), { path: "plan.md" });
    let deleted = false;
    const plan: PlanSource = {
      path: inner.path,
      read: async () => {
        if (deleted) throw new PlanNotFoundError({ path: "plan.md" });
        return inner.read();
      },
      write: (text) => inner.write(text),
    };
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(completesTask(), { clock });
    const logger = new MemoryLogger();
    const loop = createLoop({ plan, executor, store: new MemoryStateStore(), logger, clock });
    loop.on("iteration-end", () => {
      deleted = true;
    });

    const result = await loop.run();

    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
    ]);
    expect(logOf(logger.events).slice(2)).toEqual([
      [
        "error",
        {
          error_type: "PlanNotFoundError",
          error_message: "Plan file not found: plan.md",
          // No iteration is in progress: one has run, and TASK-001 is done. The task the loop
          // was about to work on is TASK-002 (loop_state's current_task_id).
          iteration: 1,
          current_task_id: "TASK-002",
          traceback: expect.any(String),
        },
      ],
      [
        "loop_exit",
        {
          total_iterations: 1,
          total_tasks_completed: 1,
          exit_reason: "plan_error",
          final_state: result.state,
        },
      ],
    ]);
    expect(result.state?.current_task_id).toBe("TASK-002");
    expect(result.exitReason).toBe("plan_error");
  });
});
