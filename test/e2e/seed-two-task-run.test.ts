import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDecisionEvent, runLoop, updatePlan } from "@loop/core";
import { createFileStateStore, createJsonlLogger, filePlan } from "@loop/fs";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { afterEach, describe, expect, it } from "vitest";
import {
  callsOf,
  checksItsBox,
  logOf,
  START,
  seedPlan,
  terminalsOf,
  withoutTaskComplete,
} from "./support.js";

// Scenario 1: the loop-code seed's sample run. Two tasks, the default config; the agent
// finishes one task per iteration and answers EXIT_SIGNAL: true the second time. The decision
// log must read, event for event, as the seed's sample (total_tasks is 2 here, not 5).

/** The seed's sample log for a two-task plan, `final_state` being the state the loop ends with. */
function seedSampleLog(finalState: unknown): [string, unknown][] {
  return [
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
      "iteration_end",
      {
        iteration: 2,
        tasks_completed: ["TASK-001", "TASK-002"],
        tasks_failed: [],
        should_exit: true,
        exit_reason: "all_tasks_complete",
      },
    ],
    [
      "loop_exit",
      {
        total_iterations: 2,
        total_tasks_completed: 2,
        exit_reason: "all_tasks_complete",
        final_state: finalState,
      },
    ],
  ];
}

const expectedCalls = [
  { task: "TASK-001", iteration: 1, attempt: 1, kind: "task" },
  { task: "TASK-002", iteration: 2, attempt: 1, kind: "task" },
];

/** The seed plan once both tasks are done: only the boxes and the RALPH_STATUS values changed. */
const finishedPlan = seedPlan(2)
  .replace("- [ ] TASK-001", "- [x] TASK-001")
  .replace("- [ ] TASK-002", "- [x] TASK-002")
  .replace("- completion_indicators: 0", "- completion_indicators: 2")
  .replace("- current_task: TASK-001", "- current_task: none");

function expectFinalState(state: unknown, planPath: string): void {
  expect(state).toMatchObject({
    current_task_id: null,
    completed_tasks: ["TASK-001", "TASK-002"],
    failed_tasks: [],
    completion_indicators: 2,
    loop_metadata: { plan_path: planPath, iterations: 2 },
    task_attempts: {},
    run: { status: "exited", exit_reason: "all_tasks_complete", iterations_at_start: 0 },
  });
}

describe("scenario 1: the seed's two-task run", () => {
  it("agent edits the plan: the decision log is the seed's sample, event for event", async () => {
    const plan = memoryPlan(seedPlan(2), { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(
      [
        checksItsBox(plan, completesTask()),
        checksItsBox(plan, completesTask({ exitSignal: true })),
      ],
      { clock },
    );
    const logger = new MemoryLogger();
    const store = new MemoryStateStore();

    const result = await runLoop({ plan, executor, store, logger, clock, terminalId: "term_001" });

    expect(callsOf(executor)).toEqual(expectedCalls);
    expect(logOf(logger.events)).toEqual(seedSampleLog(result.state));
    expect(terminalsOf(logger.events)).toEqual(["term_001"]);
    expect(result).toMatchObject({
      exitReason: "all_tasks_complete",
      complete: true,
      iterations: 2,
      totalIterations: 2,
      tasksCompleted: ["TASK-001", "TASK-002"],
      tasksFailed: [],
      error: null,
    });
    expectFinalState(result.state, "plan.md");
    // What the store holds is what the loop returned and logged.
    expect(JSON.parse((await store.get("term_001", "loop_state")) ?? "null")).toEqual(result.state);
    // The agent's two edits, each followed by the engine keeping RALPH_STATUS in step.
    expect(plan.writes).toHaveLength(4);
    expect(plan.text).toBe(finishedPlan);
  });

  it("executor reports taskComplete: the engine checks the box, changing only the box and RALPH_STATUS values", async () => {
    // CRLF and odd spacing must survive: the engine edits only the characters it must.
    const original = `${seedPlan(2)}\nNotes:  keep   this\ttext.\n`.replace(/\n/g, "\r\n");
    const plan = memoryPlan(original, { path: "plan.md" });
    const clock = createTestClock({ start: START });
    const executor = createScriptedExecutor(
      [completesTask(), completesTask({ exitSignal: true })],
      { clock },
    );
    const logger = new MemoryLogger();

    const result = await runLoop({
      plan,
      executor,
      store: new MemoryStateStore(),
      logger,
      clock,
      terminalId: "term_001",
    });

    expect(callsOf(executor)).toEqual(expectedCalls);
    expect(logOf(logger.events)).toEqual(seedSampleLog(result.state));
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(result.complete).toBe(true);
    expectFinalState(result.state, "plan.md");

    const after1 = original
      .replace("- [ ] TASK-001", "- [x] TASK-001")
      .replace("- completion_indicators: 0", "- completion_indicators: 1")
      .replace("- current_task: TASK-001", "- current_task: TASK-002");
    const after2 = after1
      .replace("- [ ] TASK-002", "- [x] TASK-002")
      .replace("- completion_indicators: 1", "- completion_indicators: 2")
      .replace("- current_task: TASK-002", "- current_task: none");
    // One write per iteration, each the previous text with only the box and the values changed.
    expect(plan.writes).toEqual([after1, after2]);
  });

  describe("over the file adapters", () => {
    let directory = "";
    afterEach(async () => {
      if (directory !== "") await rm(directory, { recursive: true, force: true });
      directory = "";
    });

    it("createFileStateStore, filePlan and createJsonlLogger: decision.log reads back as the seed's sample", async () => {
      directory = await mkdtemp(join(tmpdir(), "loop-e2e-seed-"));
      const planPath = join(directory, "plan.md");
      const logPath = join(directory, "logs", "decision.log");
      await writeFile(planPath, seedPlan(2));
      const plan = filePlan(planPath);
      const store = createFileStateStore({ root: join(directory, "state") });
      const logger = createJsonlLogger({ path: logPath });
      const clock = createTestClock({ start: START });
      // The agent edits plan.md on disk, synchronously, as an agent process outside the loop
      // would. (Asynchronous file I/O inside `execute` is real I/O the test clock does not
      // wait for: it would jump to the end of the 15-minute iteration timeout meanwhile.)
      const checkOnDisk =
        (answer: ReturnType<typeof completesTask>) =>
        (request: { task: { id: string } | null }) => {
          const id = request.task?.id ?? "";
          writeFileSync(planPath, updatePlan(readFileSync(planPath, "utf8"), { check: [id] }));
          return withoutTaskComplete(answer);
        };
      const executor = createScriptedExecutor(
        [checkOnDisk(completesTask()), checkOnDisk(completesTask({ exitSignal: true }))],
        { clock },
      );

      const result = await runLoop({
        plan,
        executor,
        store,
        logger,
        clock,
        terminalId: "term_001",
      });
      await logger.close();

      expect(callsOf(executor)).toEqual(expectedCalls);
      expect(executor.calls.map((call) => call.signalAborted)).toEqual([false, false]);
      expect(result.exitReason).toBe("all_tasks_complete");
      expect(result.complete).toBe(true);
      expectFinalState(result.state, planPath);

      const lines = (await readFile(logPath, "utf8")).split("\n");
      expect(lines.pop()).toBe("");
      const events = lines.map((line) => JSON.parse(line));
      for (const [index, line] of lines.entries()) {
        expect(parseDecisionEvent(line, { line: index + 1 })).toMatchObject({ ok: true });
        expect(Object.keys(JSON.parse(line))).toEqual([
          "terminal_id",
          "event",
          "payload",
          "timestamp",
        ]);
      }
      expect(terminalsOf(events)).toEqual(["term_001"]);
      expect(events.map((event) => [event.event, event.payload])).toEqual(
        seedSampleLog(result.state),
      );

      const stored = await readFile(
        join(directory, "state", "terminals", "term_001", "loop_state.json"),
        "utf8",
      );
      expect(JSON.parse(stored)).toEqual(result.state);
      expect(await readFile(planPath, "utf8")).toBe(finishedPlan);
    });
  });
});
