/**
 * Events into your own UI: a program that embeds `createLoop` and draws its own text UI — a
 * live task list and a status line — from the loop's typed events, stops cleanly on Ctrl+C,
 * and shows the final `LoopResult`. It runs without any AI: a scripted executor stands in
 * for the agent, and a test clock makes the usage-limit wait virtual (two hours in no time).
 *
 * Run it with `pnpm --filter @loop-examples/embed-runloop start`.
 */
import { createLoop, parsePlan } from "@loop/core";
import {
  completesTask,
  createScriptedExecutor,
  createTestClock,
  fails,
  hitsUsageLimit,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";

const PLAN = `# Feature: CSV export

- [ ] TASK-001 Add an export button
- [ ] TASK-002 Write the CSV encoder
- [ ] TASK-003 Stream large exports
`;

// The agent's answers, one per call. Replace the executor with ClaudeExecutor (@loop/claude)
// or CommandExecutor (@loop/exec), and the clock with the default, to run a real agent.
const start = new Date("2026-03-14T10:00:00Z");
const clock = createTestClock({ start });
const executor = createScriptedExecutor([
  completesTask({ costUsd: 0.25 }),
  hitsUsageLimit(new Date(start.getTime() + 2 * 3_600_000)), // TASK-002 runs again after the wait
  fails("npm test exited with code 1"), // a failed attempt: TASK-002 gets attempt 2
  completesTask({ costUsd: 0.5 }),
  completesTask({ costUsd: 0.25, exitSignal: true }),
]);

// The UI's own model: a mark per task, and a status line: what runs now, what happened last,
// the last verification's verdict, how many decision events were logged.
type Mark = " " | ">" | "x" | "!";
const marks = new Map<string, { title: string; mark: Mark }>(
  parsePlan(PLAN).tasks.map((task) => [task.id, { title: task.title, mark: " " }]),
);
let running = "starting";
let last = "-";
let verdict = "not run";
let logged = 0;

const time = (epochMs: number) => new Date(epochMs).toISOString().slice(11, 16);

/** Draws the task list and the status line (a terminal UI would redraw in place instead). */
function render(): void {
  const lines = [...marks].map(([id, { title, mark }]) => `  [${mark}] ${id} ${title}`);
  const line = `${time(clock.now())} UTC | ${running} | last: ${last} | verification: ${verdict}`;
  console.log(`${lines.join("\n")}\n  ${line} | ${logged} events\n`);
}

/** Sets a task's mark, unless it is already done. */
function mark(taskId: string, value: Mark): void {
  const task = marks.get(taskId);
  if (task && task.mark !== "x") task.mark = value;
}

// Ctrl+C aborts the running execution; the loop writes its state and returns `aborted`.
const controller = new AbortController();
const onInterrupt = () => controller.abort();
process.once("SIGINT", onInterrupt);

const loop = createLoop({
  plan: memoryPlan(PLAN, { path: "plan.md" }),
  executor,
  store: new MemoryStateStore(),
  clock,
  signal: controller.signal,
});

loop.on("iteration-start", ({ iteration, task, attempt, kind }) => {
  if (task) mark(task.id, ">");
  running =
    kind === "wrap_up"
      ? `iteration ${iteration}: wrap-up`
      : `iteration ${iteration}: ${task?.id} attempt ${attempt}`;
  render();
});
loop.on("iteration-end", ({ iteration, result, decision }) => {
  const outcome = result.success ? "ran" : `failed (${result.error ?? "no answer"})`;
  const next = decision.exit ? `stops: ${decision.reason}` : "goes on";
  last = `iteration ${iteration} ${outcome}, ${next}`;
});
loop.on("task-complete", ({ taskId }) => mark(taskId, "x"));
loop.on("task-failed", ({ taskId, attempts, reason }) => {
  mark(taskId, "!");
  last = `${taskId} given up after ${attempts} attempts: ${reason}`;
});
loop.on("wait", ({ kind, until }) => {
  running = `waiting for the ${kind.replace("_", " ")} until ${time(until)} UTC`;
  render();
});
loop.on("verification", ({ passed, unmet }) => {
  verdict = passed ? "passed" : `${unmet.length} requirements unmet`;
});
loop.on("decision", () => {
  logged += 1; // every decision-log event, as a JSONL logger would write it
});
loop.on("exit", ({ reason, complete }) => {
  running = `exit: ${reason}${complete ? " (complete)" : ""}`;
  render();
});

const result = await loop.run();
process.off("SIGINT", onInterrupt);

// The result, without the final state document and the last decision's checks (both long).
const { state: _state, decision: _decision, ...summary } = result;
console.log("LoopResult:", summary);
process.exitCode = result.complete ? 0 : result.exitReason === "aborted" ? 130 : 1;
