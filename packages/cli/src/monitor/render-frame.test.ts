import {
  createDecisionEvent,
  createInitialState,
  type DecisionEvent,
  type ExitReason,
  type LoopState,
  startRun,
} from "@loop/core";
import type { Status } from "@loop/fs";
import { describe, expect, it } from "vitest";
import { visibleWidth } from "../format/fit-line.js";
import type { LoopSnapshot, PlanProgress } from "../loop-snapshot.js";
import { createStyle } from "../style.js";
import { findActiveWait } from "./active-wait.js";
import { renderMonitorFrame } from "./render-frame.js";

const NOW = Date.parse("2026-03-14T10:20:00.000Z");
const plain = createStyle({ isTTY: false, write: () => true }, {});
const coloured = createStyle({ isTTY: true, write: () => true }, {});

function iso(offsetMs: number): string {
  return new Date(NOW + offsetMs).toISOString();
}

function runningState(changes: Partial<LoopState> = {}): LoopState {
  const started = iso(-20 * 60_000);
  const state = startRun(createInitialState({ planPath: "plan.md", now: started }), {
    runId: "run-1",
    now: started,
  });
  return {
    ...state,
    current_task_id: "TASK-003",
    completed_tasks: ["TASK-001", "TASK-002"],
    loop_metadata: { ...state.loop_metadata, iterations: 3, last_update: iso(-60_000) },
    cost_usd: 0.42,
    ...changes,
  };
}

function exitedState(reason: ExitReason, changes: Partial<LoopState> = {}): LoopState {
  const state = runningState(changes);
  if (state.run === undefined) throw new Error("startRun gives a run");
  return { ...state, run: { ...state.run, status: "exited", exit_reason: reason } };
}

const PROGRESS: PlanProgress = {
  path: "/project/plan.md",
  done: 2,
  total: 5,
  tasks: [
    { id: "TASK-001", title: "Design the schema", done: true },
    { id: "TASK-002", title: "Hash passwords", done: true },
    { id: "TASK-003", title: "Create login endpoint", done: false },
    { id: "TASK-004", title: "Remember-me cookie", done: false },
    { id: "TASK-005", title: "Logout", done: false },
  ],
};

function status(changes: Partial<Status> = {}): Status {
  return {
    timestamp: iso(-60_000),
    loop_count: 3,
    calls_made_this_hour: 42,
    max_calls_per_hour: 100,
    last_action: "executing",
    status: "running",
    exit_reason: "",
    next_reset: "11:00:00",
    ...changes,
  };
}

function iterationStart(iteration: number, task: string, offsetMs: number): DecisionEvent {
  return createDecisionEvent(
    "t1",
    "iteration_start",
    { iteration, current_task_id: task, total_tasks: 5 },
    iso(offsetMs),
  );
}

function snapshot(changes: Partial<LoopSnapshot> = {}): LoopSnapshot {
  return {
    terminalId: "t1",
    state: runningState(),
    metrics: null,
    status: status(),
    events: [iterationStart(3, "TASK-003", -60_000)],
    progress: PROGRESS,
    lock: null,
    problems: [],
    ...changes,
  };
}

function render(
  loop: LoopSnapshot,
  size: { width?: number; height?: number; interactive?: boolean } = {},
): string[] {
  return renderMonitorFrame({
    snapshot: loop,
    now: NOW,
    width: size.width ?? 100,
    height: size.height ?? Number.POSITIVE_INFINITY,
    style: plain,
    timeZone: "UTC",
    interactive: size.interactive,
  });
}

describe("renderMonitorFrame", () => {
  it("numbers the iteration in progress as loop run does, one ahead of the finished ones", () => {
    const inProgress = snapshot({ status: status({ loop_count: 4 }) });
    expect(render(inProgress).join("\n")).toContain("running · iteration 4 (4 this run)");
    const exited = snapshot({
      state: exitedState("max_iterations"),
      status: status({ loop_count: 4 }),
    });
    expect(render(exited).join("\n")).toContain(
      "exited: max_iterations · iteration 3 (3 this run)",
    );
  });

  it("shows the run, the progress bar, the current task, limits and events", () => {
    const text = render(snapshot()).join("\n");
    expect(text).toContain("loop monitor · terminal t1");
    expect(text).toMatch(
      /running · iteration 3 \(3 this run\) · started 10:00:00, 20m 00s ago · updated 10:19:00 UTC/,
    );
    expect(text).toContain("Status   running, last action executing");
    expect(text).toMatch(/Tasks {4}\[█+░+\] 2\/5 40%/);
    expect(text).toContain("Current  TASK-003 Create login endpoint");
    expect(text).toContain(
      "Limits   42/100 calls this hour (resets 11:00:00 UTC) · cost $0.42 · breaker CLOSED",
    );
    // Every time is in one zone, labelled: the reset time above and the events' times agree.
    expect(text).toContain("Recent decisions (UTC)");
    expect(text).toContain("10:19:00  iteration_start   #3 TASK-003 of 5 tasks");
    expect(text).not.toContain("waiting");
    expect(text).not.toContain("q quit");
  });

  it("says what to do when the terminal has no loop yet", () => {
    const lines = render(
      snapshot({ state: null, status: null, events: [], progress: null, problems: [] }),
    );
    expect(lines).toEqual([
      "loop monitor · terminal t1",
      "Run      no loop state yet: start one with `loop run`; this screen updates when it does",
      "",
      "Tasks    0 completed (the plan could not be read)",
      "Current  no task",
      "",
      "Recent decisions (UTC)",
      "no decision events yet",
    ]);
  });

  it("shows an exited run with its reason, and the failed tasks", () => {
    const state = exitedState("max_iterations", { failed_tasks: ["TASK-004"] });
    const text = render(snapshot({ state })).join("\n");
    expect(text).toContain("exited: max_iterations · iteration 3");
    expect(text).not.toContain("ago");
    expect(text).toContain("Failed   TASK-004");
  });

  it("shows each worker of a parallel run instead of one current task", () => {
    const worker = (task: string, startedMs: number, attempt: number) => ({
      task_id: task,
      branch: `loop/${task}`,
      path: `/project/.loop/worktrees/${task}`,
      iteration: 4,
      attempt,
      started_at: iso(startedMs),
    });
    const state = runningState({
      workers: [worker("TASK-003", -192_000, 1), worker("TASK-10", -5_000, 2)],
    });
    const lines = render(snapshot({ state }));
    const first = lines.findIndex((line) => line.startsWith("Workers"));
    expect(lines.slice(first, first + 2)).toEqual([
      "Workers  TASK-003   3m 12s  attempt 1  loop/TASK-003",
      "         TASK-10        5s  attempt 2  loop/TASK-10",
    ]);
    expect(lines.join("\n")).not.toContain("Current");
  });

  it("shows an open circuit breaker with why it opened", () => {
    const state = runningState();
    if (state.circuit_breaker === undefined) throw new Error("a new state has a breaker");
    const open: LoopState = {
      ...state,
      circuit_breaker: {
        ...state.circuit_breaker,
        state: "OPEN",
        trip: "no_progress",
        opened_at: iso(0),
      },
    };
    expect(render(snapshot({ state: open })).join("\n")).toContain("breaker OPEN (no_progress)");
  });

  it("takes progress and the current task from status.json when the plan cannot be read", () => {
    const text = render(
      snapshot({
        state: null,
        progress: null,
        status: status({ tasks_done: 1, tasks_total: 4, current_task: "TASK-002" }),
      }),
    ).join("\n");
    expect(text).toMatch(/\[█+░+\] 1\/4 25%/);
    expect(text).toContain("Current  TASK-002");
  });

  it("counts down a wait for the usage limit", () => {
    const reset = iso(723_000);
    const events = [
      createDecisionEvent(
        "t1",
        "usage_limit_wait",
        { reset_at: reset, wait_ms: 723_000, message: "Claude usage limit reached" },
        iso(0),
      ),
    ];
    const lines = render(snapshot({ events, status: status({ wait_until: reset }) }));
    expect(lines).toContain("waiting for usage limit: 12m 03s (until 10:32:03 UTC)");
  });

  it("cuts every line to the width", () => {
    const long = snapshot({
      problems: ["x".repeat(300)],
      events: [
        createDecisionEvent(
          "t1",
          "task_failed",
          { task_id: "TASK-003", attempts: 3, reason: "y".repeat(300) },
          iso(0),
        ),
      ],
    });
    for (const width of [20, 40, 79]) {
      const lines = render(long, { width });
      for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
      expect(lines.some((line) => line.endsWith("…"))).toBe(true);
    }
    const coloredLines = renderMonitorFrame({
      snapshot: long,
      now: NOW,
      width: 30,
      height: 40,
      style: coloured,
      timeZone: "UTC",
    });
    for (const line of coloredLines) expect(visibleWidth(line)).toBeLessThanOrEqual(30);
  });

  it("fits the height by leaving out the oldest events, keeping the keys on the last row", () => {
    const events = Array.from({ length: 10 }, (_, index) =>
      iterationStart(index + 1, `TASK-00${(index % 5) + 1}`, index * 1000),
    );
    const lines = render(snapshot({ events }), { height: 14, interactive: true });
    expect(lines).toHaveLength(14);
    expect(lines.at(-1)).toBe("q quit · r refresh · updates when the loop's files change");
    const shown = lines.filter((line) => line.includes("iteration_start"));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(10);
    expect(shown.at(-1)).toContain("#10 ");
  });

  it("keeps the keys on the last row of a tall terminal", () => {
    const lines = render(snapshot(), { height: 30, interactive: true });
    expect(lines).toHaveLength(30);
    expect(lines.at(-1)).toContain("q quit");
  });

  it("lists what could not be read", () => {
    const text = render(snapshot({ problems: ["plan.md: not found", "a", "b", "c"] })).join("\n");
    expect(text).toContain("! plan.md: not found");
    expect(text).toContain("! …and 1 more");
  });

  it("colours only when the style is on", () => {
    const withColours = renderMonitorFrame({
      snapshot: snapshot(),
      now: NOW,
      width: 100,
      height: 30,
      style: coloured,
    }).join("\n");
    expect(withColours).toContain("\u001b[");
    expect(render(snapshot()).join("\n")).not.toContain("\u001b");
  });
});

describe("findActiveWait", () => {
  const usageWait = (resetAt: string) =>
    createDecisionEvent(
      "t1",
      "usage_limit_wait",
      { reset_at: resetAt, wait_ms: 1000, message: "limit" },
      iso(-1000),
    );
  const rateWait = (resetAt: string) =>
    createDecisionEvent(
      "t1",
      "rate_limit_wait",
      { reset_at: resetAt, calls_made: 100, max_calls_per_hour: 100, wait_ms: 1000 },
      iso(-1000),
    );

  it("uses status.json's wait_until while it is in the future", () => {
    const loop = snapshot({
      status: status({ wait_until: iso(5000), last_action: "api_limit_wait" }),
    });
    expect(findActiveWait(loop, NOW)).toEqual({ kind: "rate limit", until: NOW + 5000 });
    expect(findActiveWait(loop, NOW + 5000)).toBeNull();
  });

  it("names the limit after the last wait event", () => {
    const loop = snapshot({
      status: status({ wait_until: iso(5000) }),
      events: [usageWait(iso(5000))],
    });
    expect(findActiveWait(loop, NOW)?.kind).toBe("usage limit");
  });

  it("uses the last wait event's reset_at without a status", () => {
    const loop = snapshot({ status: null, events: [rateWait(iso(60_000))] });
    expect(findActiveWait(loop, NOW)).toEqual({ kind: "rate limit", until: NOW + 60_000 });
    expect(findActiveWait(loop, NOW + 60_000)).toBeNull();
  });

  it("ignores a wait that an iteration start came after", () => {
    const loop = snapshot({
      status: null,
      events: [usageWait(iso(60_000)), iterationStart(4, "TASK-004", 0)],
    });
    expect(findActiveWait(loop, NOW)).toBeNull();
  });

  it("shows no wait once the run has exited", () => {
    const state = exitedState("usage_limit");
    const loop = snapshot({ state, status: status({ wait_until: iso(5000) }) });
    expect(findActiveWait(loop, NOW)).toBeNull();
  });
});
