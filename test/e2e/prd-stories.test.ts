import { parsePrd, runLoop } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { callsOf, logOf, START } from "./support.js";

// Scenario 5: a prd.json (a plan source whose path ends in .json) with story dependencies.
// Stories run in an order that respects their dependencies; the executor reports each story
// complete (taskComplete) and the engine sets its `passes` through updatePrd.

const prd = `{
  "project": "todo-api",
  "stories": [
    {
      "id": "S1",
      "title": "List todos",
      "acceptanceCriteria": ["GET /todos returns every todo"],
      "dependencies": ["S2"],
      "passes": false
    },
    {
      "id": "S2",
      "title": "Create the Todo model",
      "acceptanceCriteria": ["A todo has a title"],
      "dependencies": [],
      "passes": false
    },
    {
      "id": "S3",
      "title": "Delete a todo",
      "acceptanceCriteria": ["DELETE /todos/:id removes it"],
      "dependencies": ["S1"],
      "passes": false
    }
  ],
  "completedStories": 0
}
`;

const expectedCalls = [
  { task: "S2", iteration: 1, attempt: 1, kind: "task" },
  { task: "S1", iteration: 2, attempt: 1, kind: "task" },
  { task: "S3", iteration: 3, attempt: 1, kind: "task" },
];

async function runPrd(lastExitSignal: boolean) {
  const plan = memoryPlan(prd, { path: "prd.json" });
  const clock = createTestClock({ start: START });
  const executor = createScriptedExecutor(
    [completesTask(), completesTask(), completesTask({ exitSignal: lastExitSignal })],
    { clock },
  );
  const logger = new MemoryLogger();
  const result = await runLoop({ plan, executor, store: new MemoryStateStore(), logger, clock });
  return { plan, executor, logger, result };
}

function expectedLog(reason: string, finalState: unknown): [string, unknown][] {
  const start = (iteration: number, id: string) => [
    "iteration_start",
    { iteration, current_task_id: id, total_tasks: 3 },
  ];
  const end = (iteration: number, completed: string[], exit: boolean) => [
    "iteration_end",
    {
      iteration,
      tasks_completed: completed,
      tasks_failed: [],
      should_exit: exit,
      exit_reason: exit ? reason : null,
    },
  ];
  return [
    start(1, "S2"),
    end(1, ["S2"], false),
    start(2, "S1"),
    end(2, ["S2", "S1"], false),
    start(3, "S3"),
    end(3, ["S2", "S1", "S3"], true),
    [
      "loop_exit",
      {
        total_iterations: 3,
        total_tasks_completed: 3,
        exit_reason: reason,
        final_state: finalState,
      },
    ],
  ] as [string, unknown][];
}

function expectPassesSetByEngine(plan: ReturnType<typeof memoryPlan>): void {
  // One write per story, each setting its `passes` (and completedStories) and nothing else.
  expect(plan.writes).toHaveLength(3);
  const [first, second, third] = plan.writes.map((text) => parsePrd(text, { file: "prd.json" }));
  const passing = (parsed: typeof first) =>
    parsed?.stories.filter((story) => story.passes).map((story) => story.id);
  expect(passing(first)).toEqual(["S2"]);
  expect(passing(second)).toEqual(["S1", "S2"]);
  expect(passing(third)).toEqual(["S1", "S2", "S3"]);
  expect(plan.text).toBe(
    prd
      .replace(/"passes": false/g, '"passes": true')
      .replace('"completedStories": 0', '"completedStories": 3'),
  );
}

describe("scenario 5: prd.json stories with dependencies", () => {
  it("runs S2, S1, S3 (dependencies first) and exits prd_complete when the agent does not signal", async () => {
    const { plan, executor, logger, result } = await runPrd(false);

    expect(callsOf(executor)).toEqual(expectedCalls);
    expect(executor.requests.map((request) => request.plan.path)).toEqual([
      "prd.json",
      "prd.json",
      "prd.json",
    ]);
    // Every story passes, but the exit gate needs EXIT_SIGNAL: true, which the agent never
    // gave: the gate does not pass, and the prd_complete safety exit (every story passes)
    // ends the loop. It is a completion reason: complete is true.
    expect(logOf(logger.events)).toEqual(expectedLog("prd_complete", result.state));
    expect(result).toMatchObject({
      exitReason: "prd_complete",
      complete: true,
      iterations: 3,
      tasksCompleted: ["S2", "S1", "S3"],
    });
    expect(result.decision?.gatePassed).toBe(false);
    expectPassesSetByEngine(plan);
  });

  it("exits all_tasks_complete when the last answer also says EXIT_SIGNAL: true", async () => {
    const { plan, executor, logger, result } = await runPrd(true);

    expect(callsOf(executor)).toEqual(expectedCalls);
    // The gate passes (indicators 3 ≥ 2, EXIT_SIGNAL, every story done) and takes precedence
    // over prd_complete (docs/policy.md, Precedence): the reason is all_tasks_complete.
    expect(logOf(logger.events)).toEqual(expectedLog("all_tasks_complete", result.state));
    expect(result).toMatchObject({ exitReason: "all_tasks_complete", complete: true });
    expect(result.decision?.gatePassed).toBe(true);
    expectPassesSetByEngine(plan);
  });
});
