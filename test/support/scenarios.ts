import {
  type ExecutionRequest,
  type ExecutionResult,
  type ExitReason,
  isCompletionReason,
  runLoop,
} from "@loop/core";
import {
  createScriptedExecutor,
  createTestClock,
  type MemoryPlan,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";

// Issue 14's whole-loop scenarios: a 5-task plan, the default config, one scripted agent per
// scenario. The agents do to the plan what a real one does — check boxes in the file — and
// answer in the ways agents answer. The test (test/e2e/scenarios.test.ts) asserts each target;
// `pnpm bench` (bench/scenarios.bench.ts) prints the table.

/** The 5-task plan every scenario starts from, unless it says otherwise. */
export const SCENARIO_PLAN = [
  "# Todo app",
  "",
  "## Tasks",
  "",
  "- [ ] TASK-001 Set up the project",
  "- [ ] TASK-002 Model a todo",
  "- [ ] TASK-003 Store todos",
  "- [ ] TASK-004 List todos",
  "- [ ] TASK-005 Document the API",
  "",
].join("\n");

/** What an agent of a scenario does on one call: it edits the plan, then answers. */
type AgentTurn = (plan: MemoryPlan, request: ExecutionRequest, call: number) => Promise<Answer>;

/** An agent's answer: its words and whether it changed files. */
interface Answer {
  readonly output: string;
  readonly filesChanged: number;
}

/** What a scenario must come to. */
export interface ScenarioTarget {
  /** The most agent calls it may take. */
  readonly maxCalls: number;
  /** Exactly this many calls, when the target is exact. */
  readonly calls?: number;
  /** Whether the loop must end complete (`true`) or not (`false`). */
  readonly complete?: boolean;
  /** The exit reason it must end with. */
  readonly reason?: ExitReason;
  /** Whether the reason must be a completion reason. */
  readonly completionReason?: boolean;
  /** The loop may only end once every box is checked. */
  readonly notBeforeAllChecked?: boolean;
  /** An error must end it (`result.error`), with no call. */
  readonly error?: boolean;
}

/** One row of the table. */
export interface Scenario {
  /** Its name in the table. */
  readonly name: string;
  /** What its agent does. */
  readonly behaviour: string;
  /** What ralph_loop.sh (its JSON output mode) does on the same answers, as issue 14 measured it. */
  readonly peer: string;
  /** What the loop did when issue 14 was filed, as it measured it. */
  readonly before: string;
  /** The target, in words. */
  readonly targetText: string;
  /** The target, checked. */
  readonly target: ScenarioTarget;
  /** The plan at the start (default {@link SCENARIO_PLAN}). */
  readonly plan?: string;
  /** The agent. */
  readonly agent: AgentTurn;
}

/** What one scenario came to. */
export interface ScenarioOutcome {
  /** Agent calls made. */
  readonly calls: number;
  /** The exit reason. */
  readonly exitReason: ExitReason;
  /** Whether the loop called the plan complete. */
  readonly complete: boolean;
  /** Boxes checked in the plan when the loop ended, and in all. */
  readonly checked: number;
  readonly boxes: number;
  /** The error the loop ended on, if any. */
  readonly error: Error | null;
}

const OPEN_BOX = /^- \[ \] /m;

/** Checks the first open box of the plan; whether there was one. */
async function checkOneBox(plan: MemoryPlan): Promise<boolean> {
  const text = await plan.read();
  if (!OPEN_BOX.test(text)) return false;
  await plan.write(text.replace(OPEN_BOX, "- [x] "));
  return true;
}

/** Checks every open box of the plan; how many. */
async function checkAllBoxes(plan: MemoryPlan): Promise<number> {
  const text = await plan.read();
  const count = text.match(/^- \[ \] /gm)?.length ?? 0;
  await plan.write(text.replace(/^- \[ \] /gm, "- [x] "));
  return count;
}

async function openBoxes(plan: MemoryPlan): Promise<number> {
  return (await plan.read()).match(/^- \[ \] /gm)?.length ?? 0;
}

/** A RALPH_STATUS block with these fields. */
function statusBlock(fields: Record<string, string | number | boolean>): string {
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${String(value)}`);
  return ["---RALPH_STATUS---", ...lines, "---END_RALPH_STATUS---"].join("\n");
}

/** The honest agent: one box per call, `EXIT_SIGNAL: true` only when none is left open. */
const honest: AgentTurn = async (plan, request) => {
  const checked = await checkOneBox(plan);
  const done = (await openBoxes(plan)) === 0;
  const summary = checked
    ? `Implemented ${request.task?.id ?? "the task"} and its tests; they pass.`
    : "Checked the whole plan again: every task is done and the tests pass.";
  return {
    output: `${summary}\n\n${statusBlock({
      STATUS: done ? "COMPLETE" : "IN_PROGRESS",
      TASKS_COMPLETED_THIS_LOOP: checked ? 1 : 0,
      FILES_MODIFIED: checked ? 2 : 0,
      TESTS_STATUS: "PASSING",
      WORK_TYPE: "IMPLEMENTATION",
      EXIT_SIGNAL: done,
      RECOMMENDATION: done ? "Nothing left to do" : "Continue with the next task",
    })}`,
    filesChanged: checked ? 2 : 0,
  };
};

/** One box per call, and always the same words. */
function boxesAnd(words: (checked: boolean) => string): AgentTurn {
  return async (plan) => {
    const checked = await checkOneBox(plan);
    return { output: words(checked), filesChanged: checked ? 2 : 0 };
  };
}

const contradictoryWords = (checked: boolean) =>
  `${checked ? "Implemented the next task." : "Looked over the work again."}\n\n${statusBlock({
    STATUS: "IN_PROGRESS",
    TASKS_COMPLETED_THIS_LOOP: checked ? 1 : 0,
    FILES_MODIFIED: checked ? 2 : 0,
    WORK_TYPE: "IMPLEMENTATION",
    EXIT_SIGNAL: true,
  })}`;

const STUCK_WORDS = [
  "Looking into how the project is laid out.",
  "Still reading the code; the storage layer is unclear to me.",
  "Trying another approach to the model.",
  "I am investigating the build configuration.",
  "Reading the documentation of the framework.",
  "Comparing two ways to structure the list view.",
  "Exploring the test setup.",
  "Reviewing what is there before I change anything.",
];

/** The scenarios, in the order of issue 14's table. */
export const SCENARIOS: readonly Scenario[] = [
  {
    name: "honest",
    behaviour: "one box per call; EXIT_SIGNAL: true only on the last",
    peer: "5",
    before: "5",
    targetText: "5, complete",
    target: { maxCalls: 5, calls: 5, complete: true },
    agent: honest,
  },
  {
    name: "no status block",
    behaviour: 'checks boxes, never a block; wrap-up: "everything looks finished"',
    peer: "5",
    before: "6",
    targetText: "≤ 6, complete",
    target: { maxCalls: 6, complete: true },
    agent: boxesAnd((checked) =>
      checked
        ? "Implemented the task and its tests."
        : "I went over it: everything looks finished.",
    ),
  },
  {
    name: "silent",
    behaviour: 'checks boxes, answers "ok", never a block',
    peer: "5",
    before: "10, circuit_open",
    targetText: "≤ 6, complete, a completion reason",
    target: { maxCalls: 6, complete: true, completionReason: true },
    agent: boxesAnd(() => "ok"),
  },
  {
    name: "terse",
    behaviour: 'checks boxes, ends with "Project is complete."',
    peer: "5",
    before: "10, circuit_open",
    targetText: "≤ 6, complete",
    target: { maxCalls: 6, complete: true },
    agent: boxesAnd((checked) =>
      checked ? "Implemented the task.\n\nProject is complete." : "Project is complete.",
    ),
  },
  {
    name: "contradictory",
    behaviour: "one box per call, always STATUS: IN_PROGRESS + EXIT_SIGNAL: true",
    peer: "2 (false exit, 3 open)",
    before: "10",
    targetText: "≤ 6, never before all boxes are checked",
    target: { maxCalls: 6, complete: true, notBeforeAllChecked: true },
    agent: boxesAnd(contradictoryWords),
  },
  {
    name: "all at once",
    behaviour: "checks all five boxes in call 1, then as above",
    peer: "1",
    before: "6",
    targetText: "≤ 2, complete",
    target: { maxCalls: 2, complete: true },
    agent: async (plan) => {
      const checked = (await checkAllBoxes(plan)) > 0;
      return { output: contradictoryWords(checked), filesChanged: checked ? 9 : 0 };
    },
  },
  {
    name: "premature",
    behaviour:
      '"All done!" + STATUS: COMPLETE + EXIT_SIGNAL: true after 1 of 5, then nothing more (the same answer)',
    peer: '2 (false "complete")',
    before: "2, complete: false",
    targetText: "≤ 3, complete: false",
    target: { maxCalls: 3, complete: false },
    // "Then nothing": it checks nothing more, and keeps making the same claim.
    agent: async (plan, _request, call) => {
      const checked = call === 1 && (await checkOneBox(plan));
      return {
        output: `All done!\n\n${statusBlock({
          STATUS: "COMPLETE",
          TASKS_COMPLETED_THIS_LOOP: checked ? 1 : 0,
          FILES_MODIFIED: checked ? 2 : 0,
          WORK_TYPE: "IMPLEMENTATION",
          EXIT_SIGNAL: true,
        })}`,
        filesChanged: checked ? 2 : 0,
      };
    },
  },
  {
    name: "stuck",
    behaviour: "never checks anything, varied prose",
    peer: "3",
    before: "5",
    targetText: "≤ 5",
    target: { maxCalls: 5, complete: false },
    agent: async (_plan, _request, call) => ({
      output: STUCK_WORDS[(call - 1) % STUCK_WORDS.length] ?? "",
      filesChanged: 0,
    }),
  },
  {
    name: "fails on one task",
    behaviour: "throws on task 3 every time",
    peer: "never exits in 40",
    before: "7, task 3 given up",
    targetText: "≤ 7",
    target: { maxCalls: 7, complete: false },
    agent: async (plan, request, call) => {
      if (request.task?.id === "TASK-003") throw new Error("agent crashed: exit code 1");
      return honestOnTask(plan, request, call);
    },
  },
  {
    name: "flaky",
    behaviour: "every other call throws",
    peer: "9",
    before: "9",
    targetText: "≤ 9",
    target: { maxCalls: 9, complete: true },
    agent: async (plan, request, call) => {
      if (call % 2 === 0) throw new Error("agent crashed: connection reset");
      return honest(plan, request, call);
    },
  },
  {
    name: "asks questions",
    behaviour: "only asks questions",
    peer: "never exits in 40",
    before: "3, needs_input",
    targetText: "≤ 3",
    target: { maxCalls: 3, reason: "needs_input" },
    agent: async () => ({
      output:
        "Before I start: should todos be stored in SQLite or in a JSON file? Which do you prefer?",
      filesChanged: 0,
    }),
  },
  {
    name: "tests only",
    behaviour: "only runs tests, WORK_TYPE: TESTING",
    peer: "3",
    before: "3",
    targetText: "≤ 3",
    target: { maxCalls: 3, complete: false },
    agent: async () => ({
      output: `Ran the test suite: 12 passing.\n\n${statusBlock({
        STATUS: "IN_PROGRESS",
        TASKS_COMPLETED_THIS_LOOP: 0,
        FILES_MODIFIED: 0,
        TESTS_STATUS: "PASSING",
        WORK_TYPE: "TESTING",
        EXIT_SIGNAL: false,
      })}`,
      filesChanged: 0,
    }),
  },
  {
    name: "already complete",
    behaviour: "every box checked before the run, fresh state",
    peer: "0",
    before: "5, circuit_open",
    targetText: "0 calls, complete",
    target: { maxCalls: 0, complete: true },
    plan: SCENARIO_PLAN.replaceAll("- [ ] ", "- [x] "),
    agent: honest,
  },
  {
    name: "no tasks",
    behaviour: "a plan with no task at all",
    peer: "continues",
    before: "5, circuit_open, complete: true",
    targetText: "0 calls, a clear error, not complete",
    target: { maxCalls: 0, complete: false, error: true },
    plan: "# Todo app\n\n## Tasks\n\nNothing planned yet.\n",
    agent: honest,
  },
];

/** The honest agent on the task it was given (a crash on one task leaves its box open). */
async function honestOnTask(
  plan: MemoryPlan,
  request: ExecutionRequest,
  call: number,
): Promise<Answer> {
  const id = request.task?.id;
  const text = await plan.read();
  const box = id === undefined ? null : new RegExp(`^- \\[ \\] ${id} `, "m");
  if (box === null || !box.test(text)) return honest(plan, request, call);
  await plan.write(text.replace(box, `- [x] ${id} `));
  const done = (await openBoxes(plan)) === 0;
  return {
    output: `Implemented ${id} and its tests.\n\n${statusBlock({
      STATUS: done ? "COMPLETE" : "IN_PROGRESS",
      TASKS_COMPLETED_THIS_LOOP: 1,
      FILES_MODIFIED: 2,
      WORK_TYPE: "IMPLEMENTATION",
      EXIT_SIGNAL: done,
    })}`,
    filesChanged: 2,
  };
}

/** Runs one scenario to its end with the default config (40 iterations at most, as measured). */
export async function runScenario(scenario: Scenario): Promise<ScenarioOutcome> {
  const plan = memoryPlan(scenario.plan ?? SCENARIO_PLAN, { path: "plan.md" });
  const clock = createTestClock({ start: new Date("2026-03-14T10:00:00.000Z") });
  const executor = createScriptedExecutor(
    async (request, context): Promise<ExecutionResult> => {
      const answer = await scenario.agent(plan, request, context.call);
      return { output: answer.output, success: true, filesChanged: answer.filesChanged };
    },
    { clock },
  );
  const result = await runLoop({
    plan,
    executor,
    store: new MemoryStateStore(),
    clock,
    config: { limits: { max_iterations: 40 } },
  });
  const text = await plan.read();
  return {
    calls: executor.calls.length,
    exitReason: result.exitReason,
    complete: result.complete,
    checked: text.match(/^- \[x\] /gm)?.length ?? 0,
    boxes: text.match(/^- \[[ x]\] /gm)?.length ?? 0,
    error: result.error,
  };
}

/** What a scenario's outcome misses of its target, in words; empty when it meets it. */
export function missedTargets(scenario: Scenario, outcome: ScenarioOutcome): string[] {
  const { target } = scenario;
  const missed: string[] = [];
  if (outcome.calls > target.maxCalls) missed.push(`${outcome.calls} calls > ${target.maxCalls}`);
  if (target.calls !== undefined && outcome.calls !== target.calls) {
    missed.push(`${outcome.calls} calls, not ${target.calls}`);
  }
  if (target.complete !== undefined && outcome.complete !== target.complete) {
    missed.push(`complete: ${outcome.complete}`);
  }
  if (target.reason !== undefined && outcome.exitReason !== target.reason) {
    missed.push(`exit ${outcome.exitReason}, not ${target.reason}`);
  }
  if (target.completionReason === true && !isCompletionReason(outcome.exitReason)) {
    missed.push(`exit ${outcome.exitReason} is not a completion reason`);
  }
  if (target.notBeforeAllChecked === true && outcome.checked < outcome.boxes) {
    missed.push(`ended with ${outcome.boxes - outcome.checked} boxes open`);
  }
  if (target.error === true && outcome.error === null) missed.push("no error");
  if (target.complete === true && outcome.checked < outcome.boxes) {
    missed.push(`complete with ${outcome.boxes - outcome.checked} boxes open`);
  }
  return missed;
}

/** The row of docs/policy.md's scenario table for a scenario and its outcome. */
export function scenarioTableRow(scenario: Scenario, outcome: ScenarioOutcome): string {
  const now = `${outcome.calls}, \`${outcome.exitReason}\`, ${outcome.complete ? "complete" : "not complete"}`;
  const cells = [scenario.name, scenario.behaviour, scenario.peer, scenario.before, now];
  return `| ${[...cells, scenario.targetText].join(" | ")} |`;
}
