import {
  createLoop,
  type ExecutionRequest,
  type ExecutionResult,
  type Executor,
  PlanInUseError,
  parsePlan,
  projectLockId,
  type RunLoopOptions,
  updatePlan,
} from "@loop/core";
import {
  createTestClock,
  MemoryLogger,
  type MemoryStateSnapshot,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { MemoryWorkspaces } from "../support/memory-workspaces.js";
import { START } from "./support.js";

// The engine's side of parallel runs, on a virtual clock with workspaces in memory (the engine
// is under test here; test/parallel/ runs the same against real git worktrees).

/** A plan of `count` tasks under one `(parallel)` heading, plus what follows it. */
function parallelPlan(count: number, after: readonly string[] = []): string {
  const tasks = Array.from(
    { length: count },
    (_, index) => `- [ ] TASK-${index + 1} Add endpoint ${index + 1}`,
  );
  const rest = after.length === 0 ? [] : ["", "## Then", "", ...after];
  return ["# Plan", "", "## Endpoints (parallel)", "", ...tasks, ...rest, ""].join("\n");
}

interface AgentRun {
  readonly task: string | null;
  readonly kind: ExecutionRequest["kind"];
  readonly startedAt: number;
  /** The main plan's done tasks when the run started. */
  readonly mainDone: readonly string[];
}

interface StandIn extends Executor {
  readonly runs: AgentRun[];
  readonly maxRunning: number;
}

/**
 * A stand-in agent that works `ms` of virtual time on its task, writes `src/<task>.ts` (or
 * what `edit` says) in its working copy and checks its box in the copy's plan.
 */
function standIn(
  workspaces: MemoryWorkspaces,
  clock: ReturnType<typeof createTestClock>,
  main: ReturnType<typeof memoryPlan>,
  options: {
    readonly ms?: number;
    readonly edit?: (task: string, attempt: number) => Record<string, string>;
    readonly answer?: (task: string, attempt: number) => Partial<ExecutionResult> | null;
  } = {},
): StandIn {
  let running = 0;
  const agent = {
    name: "stand-in",
    specificationVersion: "v1" as const,
    runs: [] as AgentRun[],
    maxRunning: 0,
    async execute(request: ExecutionRequest, { signal }: { signal: AbortSignal }) {
      const mainDone = parsePlan(await main.read())
        .tasks.filter((task) => task.done)
        .map((task) => task.id);
      agent.runs.push({
        task: request.task?.id ?? null,
        kind: request.kind,
        startedAt: clock.now(),
        mainDone,
      });
      if (request.task === null || request.workspace === undefined) {
        return { output: "All tasks are done.", success: true };
      }
      running += 1;
      agent.maxRunning = Math.max(agent.maxRunning, running);
      try {
        await clock.sleep(options.ms ?? 1000, signal);
      } finally {
        running -= 1;
      }
      if (signal.aborted) return { output: "", success: false, error: "stopped" };
      const id = request.task.id;
      const special = options.answer?.(id, request.attempt);
      if (special !== null && special !== undefined) {
        return { output: "", success: false, ...special };
      }
      const files = workspaces.workspaceOf(id).files;
      const edits = options.edit?.(id, request.attempt) ?? {
        [`src/${id}.ts`]: `export const ${id.replace("-", "_")} = 1;\n`,
      };
      for (const [path, content] of Object.entries(edits)) files.set(path, content);
      const plan = workspaces.workspaceOf(id).plan;
      await plan.write(updatePlan(await plan.read(), { check: [id] }));
      return { output: `Done with ${id}.`, success: true };
    },
  };
  return agent;
}

function setUp(
  planText: string,
  workers: number,
  config: RunLoopOptions["config"] = {},
  agentOptions: Parameters<typeof standIn>[3] = {},
) {
  const clock = createTestClock({ start: START });
  const plan = memoryPlan(planText, { path: "plan.md" });
  const workspaces = new MemoryWorkspaces({ "README.md": "# app\n" });
  const executor = standIn(workspaces, clock, plan, agentOptions);
  const logger = new MemoryLogger();
  const store = new MemoryStateStore();
  const options: RunLoopOptions = {
    plan,
    executor,
    store,
    logger,
    clock,
    config: { limits: { max_iterations: 50 }, ...config },
    parallel: { workers, workspaces },
  };
  return { clock, plan, workspaces, executor, logger, store, options };
}

const eventsOf = (logger: MemoryLogger, name: string) =>
  logger.events.filter((event) => event.event === name);

describe("parallel runs: the engine", () => {
  it("needs the project to itself, whatever allow_per_terminal_plan says", async () => {
    const { options, store, executor } = setUp(parallelPlan(2), 2, {
      plans: { allow_per_terminal_plan: true },
    });
    const held = await store.lock(projectLockId("/project"));
    const refused = await createLoop({ ...options, projectRoot: "/project" }).run();
    expect(refused.exitReason).toBe("state_error");
    expect(PlanInUseError.isInstance(refused.error)).toBe(true);
    expect(refused.error?.message).toContain("a parallel run works in the project's repository");
    expect(executor.runs).toHaveLength(0);
    await held.release();
    const alone = await createLoop({ ...options, projectRoot: "/project" }).run();
    expect(alone.complete).toBe(true);
  });

  it("8 independent tasks on 4 workers: all merged, all boxes checked, in a quarter of the time", async () => {
    const { clock, plan, workspaces, executor, logger, options } = setUp(parallelPlan(8), 4);
    const result = await createLoop(options).run();

    expect(result.complete).toBe(true);
    expect(parsePlan(await plan.read()).tasks.every((task) => task.done)).toBe(true);
    for (let n = 1; n <= 8; n += 1) expect(workspaces.main.has(`src/TASK-${n}.ts`)).toBe(true);
    expect(executor.maxRunning).toBe(4);
    expect(eventsOf(logger, "task_integrated")).toHaveLength(8);
    // Two rounds of four 1-second runs (the serial run takes 8 s).
    expect(clock.now() - START.getTime()).toBe(2000);
    expect(workspaces.maxConcurrentIntegrations).toBe(1);
    expect(workspaces.openTasks).toEqual([]);
    expect(result.state?.workers).toBeUndefined();
    expect(result.state?.loop_metadata.iterations).toBeGreaterThanOrEqual(8);
    const numbers = eventsOf(logger, "iteration_start").map(
      (event) => (event.payload as { iteration: number }).iteration,
    );
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("a worker whose agent succeeded frees its slot while its work waits to be merged; one that failed holds it", async () => {
    const setup = setUp(
      parallelPlan(4),
      2,
      {},
      { answer: (task) => (task === "TASK-2" ? { error: "the tests fail" } : null) },
    );
    // Each merge takes half a second: the finished tasks queue for it.
    const integrate = setup.workspaces.integrate.bind(setup.workspaces);
    setup.workspaces.integrate = async (workspace, options) => {
      await setup.clock.sleep(500);
      return integrate(workspace, options);
    };
    // TASK-2's first attempt fails 100 ms after TASK-1 succeeds.
    const executor: Executor = {
      ...setup.executor,
      async execute(request, execution) {
        const result = await setup.executor.execute(request, execution);
        if (request.task?.id === "TASK-2" && request.attempt === 1) await setup.clock.sleep(100);
        return result;
      },
    };
    await createLoop({ ...setup.options, executor }).run();
    const startOf = (task: string) =>
      setup.executor.runs
        .filter((run) => run.task === task)
        .map((run) => run.startedAt - START.getTime());
    // TASK-1 succeeds at 1000 ms: TASK-3 starts then, before TASK-1's merge (1000–1500 ms) is
    // over. TASK-2 fails at 1100 ms: its slot is taken again only once it is settled, after
    // TASK-1's merge, at 1500 ms.
    expect(startOf("TASK-3")[0]).toBe(1000);
    expect(startOf("TASK-2")[1]).toBe(1500);
    expect(setup.executor.maxRunning).toBe(2);
    expect(setup.workspaces.maxConcurrentIntegrations).toBe(1);
  });

  it("the next task starts as an agent ends, while the finished task's work is being saved", async () => {
    const setup = setUp(parallelPlan(3), 2);
    const save = setup.workspaces.save.bind(setup.workspaces);
    setup.workspaces.save = async (workspace) => {
      await setup.clock.sleep(300);
      return save(workspace);
    };
    await createLoop(setup.options).run();
    const starts = setup.executor.runs
      .filter((run) => run.task !== null)
      .map((run) => [run.task, run.startedAt - START.getTime()]);
    expect(starts).toEqual([
      ["TASK-1", 0],
      ["TASK-2", 0],
      ["TASK-3", 1000],
    ]);
    expect(setup.executor.maxRunning).toBe(2);
  });

  it("a merge waits while the next task's working copy is being made: the agent starts first", async () => {
    const setup = setUp(parallelPlan(3), 2);
    const { clock, workspaces } = setup;
    const open = workspaces.open.bind(workspaces);
    workspaces.open = async (task, options) => {
      // Making a working copy takes 200 ms once the first two run.
      if (task.id === "TASK-3") await clock.sleep(200);
      return open(task, options);
    };
    const integrations: [string, number][] = [];
    const integrate = workspaces.integrate.bind(workspaces);
    workspaces.integrate = async (workspace, options) => {
      integrations.push([workspace.taskId, clock.now() - START.getTime()]);
      return integrate(workspace, options);
    };
    await createLoop(setup.options).run();
    const third = setup.executor.runs.find((run) => run.task === "TASK-3");
    // TASK-1 and TASK-2 end at 1000 ms; TASK-3's copy is ready at 1200 ms, and only then do
    // their merges begin.
    expect((third?.startedAt ?? 0) - START.getTime()).toBe(1200);
    expect(integrations).toEqual([
      ["TASK-1", 1200],
      ["TASK-2", 1200],
      ["TASK-3", 2200],
    ]);
  });

  it("a plan without a (parallel) heading runs one task at a time, as it always did", async () => {
    const text = "# Plan\n\n- [ ] TASK-1 One\n- [ ] TASK-2 Two\n- [ ] TASK-3 Three\n";
    const { executor, options } = setUp(text, 4);
    const result = await createLoop(options).run();
    expect(result.complete).toBe(true);
    expect(executor.maxRunning).toBe(1);
    expect(executor.runs.filter((run) => run.kind === "task").map((run) => run.task)).toEqual([
      "TASK-1",
      "TASK-2",
      "TASK-3",
    ]);
  });

  it("a task never starts before the tasks it comes after are integrated", async () => {
    const text = parallelPlan(3, ["- [ ] TASK-9 Document the endpoints"]);
    const { executor, options } = setUp(text, 4);
    await createLoop(options).run();
    const last = executor.runs.find((run) => run.task === "TASK-9");
    expect(last?.mainDone).toEqual(["TASK-1", "TASK-2", "TASK-3"]);
  });

  it("prd.json stories start when their dependencies pass in the main prd", async () => {
    const prd = {
      project: "app",
      userStories: [
        { id: "US-1", title: "Schema", passes: false, priority: 1 },
        { id: "US-2", title: "API", passes: false, priority: 2, dependsOn: ["US-1"] },
        { id: "US-3", title: "CLI", passes: false, priority: 3 },
      ],
    };
    const clock = createTestClock({ start: START });
    const plan = memoryPlan(JSON.stringify(prd, null, 2), { path: "prd.json" });
    const workspaces = new MemoryWorkspaces();
    const starts: { task: string; passing: string[] }[] = [];
    const executor: Executor = {
      name: "prd-agent",
      specificationVersion: "v1",
      async execute(request, { signal }) {
        if (request.task === null || request.workspace === undefined) {
          return { output: "done", success: true };
        }
        const main = JSON.parse(await plan.read()) as typeof prd;
        starts.push({
          task: request.task.id,
          passing: main.userStories.filter((story) => story.passes).map((story) => story.id),
        });
        await clock.sleep(1000, signal);
        workspaces.workspaceOf(request.task.id).files.set(`${request.task.id}.txt`, "x");
        return { output: "done", success: true, taskComplete: true };
      },
    };
    const result = await createLoop({
      plan,
      executor,
      store: new MemoryStateStore(),
      clock,
      parallel: { workers: 3, workspaces },
    }).run();
    expect(result.complete).toBe(true);
    expect(starts.slice(0, 2).map((start) => start.task)).toEqual(["US-1", "US-3"]);
    expect(starts.find((start) => start.task === "US-2")?.passing).toContain("US-1");
  });

  it("two tasks editing the same file: one merges, the other is rolled back, kept and re-run on the new main line", async () => {
    const { workspaces, executor, logger, plan, options } = setUp(
      parallelPlan(2),
      2,
      {},
      {
        edit: (task, attempt) => ({
          "src/routes.ts":
            attempt === 1 ? `routes by ${task}\n` : `routes by TASK-1\nand ${task}\n`,
        }),
      },
    );
    const result = await createLoop(options).run();
    expect(result.complete).toBe(true);
    const conflicts = eventsOf(logger, "merge_conflict");
    expect(conflicts).toHaveLength(1);
    const conflict = conflicts[0]?.payload as { task_id: string; kept_branch: string };
    expect(conflict.task_id).toBe("TASK-2");
    // Its first attempt's work is kept; the second attempt started afresh from the main line.
    const kept = await workspaces.kept();
    expect(kept.map((work) => work.branch)).toContain(conflict.kept_branch);
    const reopen = workspaces.calls.filter(
      (call) => call.method === "open" && call.taskId === "TASK-2",
    );
    expect(reopen.map((call) => call.detail)).toEqual([undefined, undefined]);
    expect(workspaces.main.get("src/routes.ts")).toBe("routes by TASK-1\nand TASK-2\n");
    expect(parsePlan(await plan.read()).tasks.every((task) => task.done)).toBe(true);
    expect(executor.runs.filter((run) => run.task === "TASK-2")).toHaveLength(2);
  });

  it("a merge agent resolves the conflict through the Executor interface", async () => {
    const setup = setUp(
      parallelPlan(2),
      2,
      {},
      {
        edit: (task) => ({ "src/routes.ts": `routes by ${task}\n` }),
      },
    );
    const merges: ExecutionRequest[] = [];
    const mergeExecutor: Executor = {
      name: "merger",
      specificationVersion: "v1",
      async execute(request) {
        merges.push(request);
        const files = setup.workspaces.workspaceOf(request.task?.id ?? "").files;
        files.set("src/routes.ts", "routes by TASK-1\nroutes by TASK-2\n");
        return { output: "resolved", success: true, costUsd: 0.5 };
      },
    };
    const result = await createLoop({
      ...setup.options,
      parallel: { workers: 2, workspaces: setup.workspaces, mergeExecutor },
    }).run();
    expect(result.complete).toBe(true);
    expect(merges).toHaveLength(1);
    expect(merges[0]?.kind).toBe("merge");
    expect(merges[0]?.prompt).toContain("src/routes.ts");
    expect(eventsOf(setup.logger, "merge_conflict")).toHaveLength(0);
    const integrated = eventsOf(setup.logger, "task_integrated").map(
      (event) => event.payload as { task_id: string; resolved: boolean },
    );
    expect(integrated.find((event) => event.task_id === "TASK-2")?.resolved).toBe(true);
    expect(setup.workspaces.main.get("src/routes.ts")).toBe("routes by TASK-1\nroutes by TASK-2\n");
    expect(result.costUsd).toBe(0.5);
    expect(setup.executor.runs.filter((run) => run.task === "TASK-2")).toHaveLength(1);
  });

  it("a merge agent left by a killed run is stopped by the next run, through the merge executor", async () => {
    const setup = setUp(
      parallelPlan(2),
      2,
      {},
      { edit: (task) => ({ "src/routes.ts": `routes by ${task}\n` }) },
    );
    // What a loop killed while its merge agent runs leaves in the store: the state as it was
    // saved once the merge agent's process was recorded.
    let left = null as MemoryStateSnapshot | null;
    const stopped: string[] = [];
    const merger = (name: string): Executor => ({
      name,
      specificationVersion: "v1",
      async execute(_request, execution) {
        await execution.recordProcess?.({ token: `${name}-token`, command: name, host: "here" });
        await execution.recordProcess?.({
          token: `${name}-token`,
          command: name,
          host: "here",
          pgid: 4242,
        });
        left ??= setup.store.snapshot();
        return { output: "", success: false, error: "killed" };
      },
      async stopSurvivors(agent) {
        stopped.push(`${name} stops ${agent.token}`);
        return { pids: [4242], signal: "SIGTERM", stopped: true };
      },
    });
    const workerExecutor: Executor = {
      ...setup.executor,
      async stopSurvivors(agent) {
        stopped.push(`worker executor stops ${agent.token}`);
        return { pids: [], signal: null, stopped: true };
      },
    };
    await createLoop({
      ...setup.options,
      executor: workerExecutor,
      parallel: { workers: 2, workspaces: setup.workspaces, mergeExecutor: merger("first") },
    }).run();
    expect(left).not.toBeNull();
    const store = new MemoryStateStore();
    for (const [terminal, documents] of Object.entries(left ?? {})) {
      store.documents.set(terminal, new Map(Object.entries(documents)));
    }
    const saved = JSON.parse(
      [...store.documents.values()].flatMap((documents) =>
        [...documents].filter(([key]) => key === "loop_state").map(([, doc]) => doc.current),
      )[0] ?? "{}",
    ) as { workers?: { task_id: string; merge_process?: { token: string } }[] };
    expect(saved.workers?.map((worker) => worker.merge_process?.token)).toContain("first-token");

    const logger = new MemoryLogger();
    await createLoop({
      ...setup.options,
      store,
      logger,
      executor: workerExecutor,
      parallel: {
        workers: 2,
        workspaces: new MemoryWorkspaces({ "README.md": "# app\n" }),
        mergeExecutor: merger("second"),
      },
    }).run();
    expect(stopped[0]).toBe("second stops first-token");
    const report = eventsOf(logger, "previous_agent_stopped")[0]?.payload as
      | { command: string; pids: number[] }
      | undefined;
    expect(report).toMatchObject({ command: "first", pids: [4242] });
  });

  it("a task given up after its attempts names the branch its work is kept on", async () => {
    const { logger, workspaces, options } = setUp(
      parallelPlan(2),
      2,
      { tasks: { max_attempts: 2 } },
      {
        answer: (task) => (task === "TASK-2" ? { success: false, error: "tests fail" } : null),
      },
    );
    // TASK-2's agent edits a file and fails each time: its work is kept.
    const original = options.executor.execute.bind(options.executor);
    const executor: Executor = {
      ...options.executor,
      async execute(request, execution) {
        if (request.task?.id === "TASK-2" && request.workspace !== undefined) {
          workspaces.workspaceOf("TASK-2").files.set("src/half.ts", `attempt ${request.attempt}\n`);
        }
        return original(request, execution);
      },
    };
    const result = await createLoop({ ...options, executor }).run();
    expect(result.tasksFailed).toEqual(["TASK-2"]);
    const failed = eventsOf(logger, "task_failed")[0]?.payload as {
      task_id: string;
      kept_branch?: string;
    };
    expect(failed.task_id).toBe("TASK-2");
    expect(failed.kept_branch).toMatch(/^loop\/kept\/TASK-2\//);
    expect((await workspaces.kept()).map((work) => work.branch)).toContain(failed.kept_branch);
    // The second attempt went on from the first one's kept work.
    const opens = workspaces.calls.filter(
      (call) => call.method === "open" && call.taskId === "TASK-2",
    );
    expect(opens[1]?.detail).toMatch(/^loop\/kept\/TASK-2\//);
    expect(workspaces.main.has("src/half.ts")).toBe(false);
  });

  it("the hourly call limit holds for all workers together", async () => {
    const { executor, clock, options } = setUp(parallelPlan(6), 4, {
      limits: { max_calls_per_hour: 3, max_iterations: 50 },
    });
    const result = await createLoop(options).run();
    expect(result.complete).toBe(true);
    const hourOf = (at: number) => Math.floor(at / 3_600_000);
    const perHour = new Map<number, number>();
    for (const run of executor.runs) {
      perHour.set(hourOf(run.startedAt), (perHour.get(hourOf(run.startedAt)) ?? 0) + 1);
    }
    expect(Math.max(...perHour.values())).toBeLessThanOrEqual(3);
    expect(executor.maxRunning).toBe(3);
    expect(clock.now()).toBeGreaterThan(START.getTime() + 3_600_000 / 2);
  });

  it("max_iterations counts every worker's iterations", async () => {
    const { executor, options } = setUp(parallelPlan(8), 4, { limits: { max_iterations: 5 } });
    const result = await createLoop(options).run();
    expect(result.exitReason).toBe("max_iterations");
    expect(executor.runs.filter((run) => run.kind === "task")).toHaveLength(5);
    expect(result.state?.loop_metadata.iterations).toBe(5);
  });

  it("a usage limit pauses every new start until it resets; the iteration does not count", async () => {
    let limited = false;
    const setup = setUp(
      parallelPlan(4),
      2,
      {},
      {
        answer: (task) => {
          if (task !== "TASK-1" || limited) return null;
          limited = true;
          return {
            success: false,
            usageLimit: { resetAt: START.getTime() + 3_600_000, waitable: true, message: "limit" },
          };
        },
      },
    );
    const result = await createLoop(setup.options).run();
    expect(result.complete).toBe(true);
    const waits = eventsOf(setup.logger, "usage_limit_wait");
    expect(waits).toHaveLength(1);
    const afterLimit = setup.executor.runs.filter(
      (run) => run.kind === "task" && run.startedAt > START.getTime() + 1000,
    );
    for (const run of afterLimit)
      expect(run.startedAt).toBeGreaterThanOrEqual(START.getTime() + 3_600_000);
    expect(result.state?.task_attempts?.["TASK-1"] ?? 0).toBe(0);
  });

  it("an exit decided on one worker stops the others", async () => {
    const setup = setUp(
      parallelPlan(4),
      4,
      { limits: { max_cost_usd: 1, max_iterations: 50 } },
      {
        ms: 1000,
        answer: (task) =>
          task === "TASK-1" ? { success: true, costUsd: 2, output: "spent" } : null,
      },
    );
    // TASK-1 answers at once (it spends the budget); the others are still working.
    const executor: Executor = {
      ...setup.executor,
      async execute(request, execution) {
        if (request.task?.id === "TASK-1") return { output: "spent", success: true, costUsd: 2 };
        return setup.executor.execute(request, execution);
      },
    };
    const result = await createLoop({ ...setup.options, executor }).run();
    expect(result.exitReason).toBe("budget_exhausted");
    expect(eventsOf(setup.logger, "task_integrated")).toHaveLength(0);
    // The stopped tasks' working copies stay open for the next run to go on with.
    expect(setup.workspaces.openTasks.sort()).toEqual(["TASK-2", "TASK-3", "TASK-4"]);
    expect(result.state?.workers).toBeUndefined();
  });

  it("Ctrl+C stops every worker; the next run reopens their working copies", async () => {
    const setup = setUp(parallelPlan(3), 3);
    const controller = new AbortController();
    const executor: Executor = {
      ...setup.executor,
      async execute(request, execution) {
        const run = setup.executor.execute(request, execution);
        // Ctrl+C while all three agents work.
        if (request.task?.id === "TASK-3") controller.abort();
        return run;
      },
    };
    const first = await createLoop({ ...setup.options, executor, signal: controller.signal }).run();
    expect(first.exitReason).toBe("aborted");
    expect(setup.workspaces.openTasks.sort()).toEqual(["TASK-1", "TASK-2", "TASK-3"]);
    expect(first.state?.loop_metadata.iterations).toBe(0);

    const second = await createLoop(setup.options).run();
    expect(second.complete).toBe(true);
    const recovered = eventsOf(setup.logger, "workspaces_recovered")[0];
    expect(recovered?.event).toBe("workspaces_recovered");
    const resumed =
      recovered?.event === "workspaces_recovered" ? [...recovered.payload.resumed] : [];
    expect(resumed.sort()).toEqual(["TASK-1", "TASK-2", "TASK-3"]);
    expect(setup.workspaces.openTasks).toEqual([]);
  });
});
