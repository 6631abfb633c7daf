import { runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START } from "./support.js";

// When every task is done but the exit gate is not met, the engine runs a wrap-up iteration whose
// prompt asks the agent to verify the work against the plan's requirements and lists what
// verification found unmet.

const plan = [
  "# Feature: Login",
  "",
  "## RALPH_STATUS",
  "",
  "- EXIT_SIGNAL: false",
  "- completion_indicators: 0",
  "- current_task: TASK-001",
  "",
  "## Tasks",
  "",
  "- [ ] TASK-001 Create login endpoint",
  "- [ ] TASK-002 Write unit tests for the login endpoint",
  "",
  "## Acceptance Criteria",
  "",
  "- [ ] Login endpoint returns JWT token",
  "",
].join("\n");

describe("wrap-up iteration", () => {
  it("runs once every task is done without an exit signal, listing the unmet requirements", async () => {
    const source = memoryPlan(plan, { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const logger = new MemoryLogger();
    const executor = createScriptedExecutor(
      [completesTask(), completesTask(), completesTask({ exitSignal: true })],
      { clock },
    );

    const result = await runLoop({
      plan: source,
      executor,
      store: new MemoryStateStore(),
      logger,
      clock,
    });

    expect(executor.requests.map((request) => [request.kind, request.task?.id ?? null])).toEqual([
      ["task", "TASK-001"],
      ["task", "TASK-002"],
      ["wrap_up", null],
    ]);
    const wrapUp = executor.requests[2];
    expect(wrapUp?.unmetRequirements).toEqual(["Login endpoint returns JWT token"]);
    expect(wrapUp?.prompt).toContain("Login endpoint returns JWT token");
    expect(wrapUp?.prompt).toMatch(/EXIT_SIGNAL/);
    expect(result).toMatchObject({
      exitReason: "all_tasks_complete",
      complete: true,
      iterations: 3,
    });
    expect(logger.ofType("iteration_start").map((event) => event.payload.current_task_id)).toEqual([
      "TASK-001",
      "TASK-002",
      null,
    ]);
    // Each failed verdict (after TASK-002 and after the wrap-up) is in the decision log, with
    // what was unmet.
    const failed = { passed: false, unmet: ["Login endpoint returns JWT token"], concerns: [] };
    expect(logger.ofType("verification").map((event) => event.payload)).toEqual([failed, failed]);
  });

  it("one quiet wrap-up ends a finished plan plan_complete; a wrap-up that changes files is not quiet", async () => {
    const source = memoryPlan("# Plan\n\n- [ ] TASK-001 Model\n- [ ] TASK-002 List\n", {
      path: "plan.md",
    });
    const clock = createTestClock({ start: START });
    const logger = new MemoryLogger();
    // The agent checks both boxes and never writes a status block.
    const executor = createScriptedExecutor(
      [
        { output: "Did the model.", success: true, taskComplete: true, filesChanged: 2 },
        { output: "Did the list.", success: true, taskComplete: true, filesChanged: 2 },
        { output: "Tidied the README while checking.", success: true, filesChanged: 1 },
        { output: "Looked it all over.", success: true, filesChanged: 0 },
      ],
      { clock },
    );
    const result = await runLoop({
      plan: source,
      executor,
      store: new MemoryStateStore(),
      logger,
      clock,
    });
    expect(executor.requests.map((request) => request.kind)).toEqual([
      "task",
      "task",
      "wrap_up",
      "wrap_up",
    ]);
    expect(result).toMatchObject({ exitReason: "plan_complete", complete: true, iterations: 4 });
    expect(logger.ofType("loop_exit")[0]?.payload.exit_reason).toBe("plan_complete");
    expect(logger.ofType("iteration_end").map((event) => event.payload.exit_reason)).toEqual([
      null,
      null,
      null,
      "plan_complete",
    ]);
  });
});
