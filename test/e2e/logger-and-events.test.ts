import { createLoop, type DecisionEvent, type Logger, type LoopEvents, runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { callsOf, checksItsBox, logOf, START, seedPlan } from "./support.js";

describe("scenario 13: a logger that throws on every call", () => {
  it("never breaks the loop; onLoggerError hears about it once", async () => {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(
      [completesTask(), completesTask({ exitSignal: true })],
      { clock },
    );
    let logCalls = 0;
    const logger: Logger = {
      log() {
        logCalls += 1;
        throw new Error("EACCES: permission denied, open 'decision.log'");
      },
      async flush() {
        throw new Error("EACCES: permission denied, flush");
      },
    };
    const reported: unknown[] = [];
    const store = new MemoryStateStore();

    const result = await runLoop({
      plan,
      executor,
      store,
      logger,
      clock,
      onLoggerError: (error) => reported.push(error),
      terminalId: "term_001",
    });

    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
      { task: "TASK-002", iteration: 2, attempt: 1, kind: "task" },
    ]);
    expect(result).toMatchObject({
      exitReason: "all_tasks_complete",
      complete: true,
      iterations: 2,
      tasksCompleted: ["TASK-001", "TASK-002"],
      error: null,
    });
    // Every event was offered to the logger (2 × start and end, and loop_exit)…
    expect(logCalls).toBe(5);
    // …and the failure was reported once.
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toContain("EACCES: permission denied, open 'decision.log'");
    expect(JSON.parse((await store.get("term_001", "loop_state")) ?? "null")).toEqual(result.state);
  });
});

describe("scenario 14: typed events of createLoop", () => {
  it("iteration-start, task-complete, iteration-end and exit agree with the decision log", async () => {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(
      [
        // One task the agent checks in the plan, one the executor reports complete.
        checksItsBox(plan, completesTask()),
        completesTask({ exitSignal: true }),
      ],
      { clock },
    );
    const logger = new MemoryLogger();
    const loop = createLoop({ plan, executor, store: new MemoryStateStore(), logger, clock });

    // Each handler's parameter is typed by the event's name.
    const sequence: [string, unknown][] = [];
    const starts: Parameters<LoopEvents["iteration-start"]>[0][] = [];
    const ends: Parameters<LoopEvents["iteration-end"]>[0][] = [];
    const decisions: DecisionEvent[] = [];
    loop.on("iteration-start", (event) => {
      starts.push(event);
      sequence.push([
        "iteration-start",
        {
          iteration: event.iteration,
          task: event.task?.id ?? null,
          attempt: event.attempt,
          kind: event.kind,
        },
      ]);
    });
    loop.on("task-complete", (event) => sequence.push(["task-complete", { ...event }]));
    loop.on("iteration-end", (event) => {
      ends.push(event);
      sequence.push([
        "iteration-end",
        {
          iteration: event.iteration,
          tasksCompleted: event.tasksCompleted,
          exit: event.decision.exit,
          reason: event.decision.reason,
        },
      ]);
    });
    loop.on("exit", (event) => sequence.push(["exit", { ...event }]));
    loop.on("decision", (event) => decisions.push(event));

    const result = await loop.run();

    expect(callsOf(executor)).toEqual([
      { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
      { task: "TASK-002", iteration: 2, attempt: 1, kind: "task" },
    ]);
    expect(sequence).toEqual([
      ["iteration-start", { iteration: 1, task: "TASK-001", attempt: 1, kind: "task" }],
      ["task-complete", { taskId: "TASK-001", iteration: 1 }],
      ["iteration-end", { iteration: 1, tasksCompleted: ["TASK-001"], exit: false, reason: null }],
      ["iteration-start", { iteration: 2, task: "TASK-002", attempt: 1, kind: "task" }],
      ["task-complete", { taskId: "TASK-002", iteration: 2 }],
      [
        "iteration-end",
        { iteration: 2, tasksCompleted: ["TASK-002"], exit: true, reason: "all_tasks_complete" },
      ],
      ["exit", { reason: "all_tasks_complete", complete: true }],
    ]);

    // Each typed event agrees with its decision event.
    expect(starts.map((event) => [event.iteration, event.task?.id ?? null])).toEqual(
      logger
        .ofType("iteration_start")
        .map(({ payload }) => [payload.iteration, payload.current_task_id]),
    );
    expect(
      ends.map((event) => [event.iteration, event.decision.exit, event.decision.reason]),
    ).toEqual(
      logger
        .ofType("iteration_end")
        .map(({ payload }) => [payload.iteration, payload.should_exit, payload.exit_reason]),
    );
    expect(starts[0]?.task?.title).toBe("Design database schema for users table");
    expect(ends[1]?.result.output).toContain("EXIT_SIGNAL: true");
    expect(logger.last("loop_exit")?.payload.exit_reason).toBe(result.exitReason);

    // `decision` carries every decision event, exactly as logged.
    expect(decisions).toEqual(logger.events);
    expect(logOf(decisions).map(([name]) => name)).toEqual([
      "iteration_start",
      "iteration_end",
      "iteration_start",
      "iteration_end",
      "loop_exit",
    ]);
    expect(() => loop.run()).toThrow(/runs once/);
  });
});
