import { createDecisionEvent, DECISION_EVENT_NAMES, type DecisionEvent } from "@loop/core";
import { describe, expect, it } from "vitest";
import { summarizeEvent } from "./event-summary.js";

const at = "2026-03-14T10:00:00.000Z";

/** One example event of each name, as the docs show them. */
const EXAMPLES: readonly (readonly [DecisionEvent, string])[] = [
  [
    createDecisionEvent(
      "t1",
      "iteration_start",
      { iteration: 3, current_task_id: "TASK-003", total_tasks: 5 },
      at,
    ),
    "#3 TASK-003 of 5 tasks",
  ],
  [
    createDecisionEvent(
      "t1",
      "iteration_start",
      { iteration: 9, current_task_id: null, total_tasks: 1 },
      at,
    ),
    "#9 wrap-up (no task) of 1 task",
  ],
  [
    createDecisionEvent(
      "t1",
      "iteration_end",
      {
        iteration: 2,
        tasks_completed: ["TASK-001", "TASK-002"],
        tasks_failed: [],
        should_exit: true,
        exit_reason: "all_tasks_complete",
      },
      at,
    ),
    "#2 2 done, 0 failed → exit: all_tasks_complete",
  ],
  [
    createDecisionEvent(
      "t1",
      "iteration_end",
      {
        iteration: 1,
        tasks_completed: ["TASK-001"],
        tasks_failed: ["TASK-009"],
        should_exit: false,
        exit_reason: null,
      },
      at,
    ),
    "#1 1 done, 1 failed → continue",
  ],
  [
    createDecisionEvent(
      "t1",
      "loop_exit",
      {
        total_iterations: 1,
        total_tasks_completed: 2,
        exit_reason: "max_iterations",
        final_state: null,
      },
      at,
    ),
    "max_iterations after 1 iteration, 2 tasks completed",
  ],
  [
    createDecisionEvent(
      "t1",
      "error",
      {
        error_type: "PlanParseError",
        error_message: "Plan file not found",
        iteration: 3,
        current_task_id: "TASK-003",
      },
      at,
    ),
    "PlanParseError: Plan file not found (TASK-003)",
  ],
  [
    createDecisionEvent(
      "t1",
      "rate_limit_wait",
      {
        reset_at: "2026-03-14T11:00:00.000Z",
        calls_made: 100,
        max_calls_per_hour: 100,
        wait_ms: 1_200_000,
      },
      at,
    ),
    "100/100 calls this hour, waits 20m 00s",
  ],
  [
    createDecisionEvent(
      "t1",
      "usage_limit_wait",
      {
        reset_at: "2026-03-14T15:00:00.000Z",
        wait_ms: 18_000_000,
        message: "Claude usage limit reached",
      },
      at,
    ),
    "waits 5h 00m: Claude usage limit reached",
  ],
  [
    createDecisionEvent(
      "t1",
      "task_failed",
      { task_id: "TASK-003", attempts: 3, reason: "tests still fail" },
      at,
    ),
    "TASK-003 after 3 attempts: tests still fail",
  ],
  [
    createDecisionEvent("t1", "state_recovered", { from: "backup", problem: "invalid JSON" }, at),
    "from backup: invalid JSON",
  ],
  [
    createDecisionEvent(
      "t1",
      "lock_takeover",
      { previous_holder: { pid: 4242, host: "build-7", started_at: at } },
      at,
    ),
    "from pid 4242 on build-7",
  ],
  [
    createDecisionEvent(
      "t1",
      "verification",
      { passed: false, unmet: ["Login works"], concerns: [{ kind: "blocker", text: "No key." }] },
      at,
    ),
    "failed: 1 unmet requirement, 1 concern",
  ],
  [
    createDecisionEvent("t1", "verification", { passed: true, unmet: [], concerns: [] }, at),
    "passed",
  ],
  [
    createDecisionEvent(
      "t1",
      "config_warning",
      { code: "EXIT_GATE_ALWAYS_OPEN", path: ["exit_policy"], message: "the gate is always open" },
      at,
    ),
    "EXIT_GATE_ALWAYS_OPEN: the gate is always open",
  ],
  [
    createDecisionEvent(
      "t1",
      "state_reset",
      {
        parts: ["breaker", "failed", "iterations"],
        before: {
          circuit_breaker: "OPEN",
          failed_tasks: ["TASK-002", "TASK-004"],
          task_attempts: { "TASK-002": 3, "TASK-004": 3 },
          iterations: 20,
          session_id: null,
          cost_usd: 1,
        },
        after: {
          circuit_breaker: "CLOSED",
          failed_tasks: [],
          task_attempts: {},
          iterations: 0,
          session_id: null,
          cost_usd: 1,
        },
      },
      at,
    ),
    "circuit breaker OPEN → CLOSED; 2 given-up tasks forgotten (TASK-002, TASK-004), attempts of 2 tasks cleared; iterations 20 → 0",
  ],
  [
    createDecisionEvent(
      "t1",
      "previous_agent_stopped",
      {
        iteration: 7,
        command: "claude",
        pgid: 4242,
        started_at: at,
        pids: [4242, 4250],
        signal: "SIGTERM",
        stopped: true,
      },
      at,
    ),
    "claude of iteration 7 (group 4242): 2 processes stopped with SIGTERM",
  ],
  [
    createDecisionEvent(
      "t1",
      "task_failed",
      {
        task_id: "TASK-003",
        attempts: 3,
        reason: "tests still fail",
        kept_branch: "loop/kept/TASK-003/1",
      },
      at,
    ),
    "TASK-003 after 3 attempts: tests still fail; work kept on loop/kept/TASK-003/1",
  ],
  [
    createDecisionEvent(
      "t1",
      "iteration_start",
      { iteration: 4, current_task_id: "TASK-2", total_tasks: 8, branch: "loop/TASK-2" },
      at,
    ),
    "#4 TASK-2 of 8 tasks on loop/TASK-2",
  ],
  [
    createDecisionEvent(
      "t1",
      "task_integrated",
      {
        task_id: "TASK-4",
        iteration: 9,
        branch: "loop/TASK-4",
        commit: "3f2c9a1d8e7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a",
        files_changed: 3,
        resolved: true,
      },
      at,
    ),
    "TASK-4 from loop/TASK-4: 3 files (3f2c9a1d8e7b), a conflict resolved by the merge agent",
  ],
  [
    createDecisionEvent(
      "t1",
      "merge_conflict",
      {
        task_id: "TASK-5",
        iteration: 10,
        files: ["src/routes.ts", "src/app.ts"],
        kept_branch: "loop/kept/TASK-5/1",
        merge_agent: false,
      },
      at,
    ),
    "TASK-5 conflicts in src/routes.ts, src/app.ts; kept on loop/kept/TASK-5/1, runs again",
  ],
  [
    createDecisionEvent(
      "t1",
      "workspaces_recovered",
      {
        resumed: ["TASK-6"],
        kept: [{ task_id: "TASK-7", branch: "loop/kept/TASK-7/1" }],
        removed: [],
        integrations: [{ task_id: "TASK-4", outcome: "rolled_back" }],
      },
      at,
    ),
    "resumed TASK-6; kept TASK-7 (loop/kept/TASK-7/1); integration of TASK-4 rolled back",
  ],
  [
    createDecisionEvent(
      "t1",
      "task_retried",
      {
        task_id: "TASK-7",
        from_branch: "loop/kept/TASK-7/1",
        branch: "loop/TASK-7",
        was_given_up: true,
        attempts: 2,
      },
      at,
    ),
    "TASK-7 runs again from loop/kept/TASK-7/1 (now loop/TASK-7); no longer given up, 2 attempts forgotten",
  ],
];

describe("summarizeEvent", () => {
  const cases = EXAMPLES.map(([event, summary]) => ({ name: event.event, event, summary }));

  it.each(cases)("summarizes $name as $summary", ({ event, summary }) => {
    expect(summarizeEvent(event)).toBe(summary);
  });

  it("has an example of every event name", () => {
    const named = new Set(EXAMPLES.map(([event]) => event.event));
    expect([...named].sort()).toEqual([...DECISION_EVENT_NAMES].sort());
  });

  it("keeps a multi-line or escape-laden message on one safe line", () => {
    const event = createDecisionEvent(
      "t1",
      "error",
      {
        error_type: "Error",
        error_message: "first line\nsecond \u001b[2Jline",
        iteration: 0,
        current_task_id: null,
      },
      at,
    );
    expect(summarizeEvent(event)).toBe("Error: first line second  [2Jline");
  });
});
