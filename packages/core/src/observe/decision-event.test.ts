import { describe, expect, it } from "vitest";
import { formatKeyPath } from "../errors/diagnostic.js";
import { EXIT_REASONS } from "../policy/exit-reasons.js";
import { createDecisionEvent } from "./create-decision-event.js";
import { DECISION_EVENT_NAMES, type DecisionEvent, DecisionEventSchema } from "./decision-event.js";
import { DecisionEventError } from "./decision-event-error.js";
import type { DecisionEventName, DecisionEventPayloads } from "./decision-event-payloads.js";
import { parseDecisionEvent } from "./parse-decision-event.js";

/** The seed's loop_state.json example, for the loop_exit line's `final_state: {...}`. */
const seedState = {
  current_task_id: "TASK-003",
  completed_tasks: ["TASK-001", "TASK-002"],
  failed_tasks: [],
  completion_indicators: 2,
  loop_metadata: {
    plan_path: "/path/to/plan.md",
    started_at: "2026-03-14T10:00:00",
    last_update: "2026-03-14T10:15:00",
    iterations: 3,
  },
};

/**
 * The seed's decision.log example, verbatim except `"final_state": {...}` (an elision, not
 * JSON), which holds the seed's loop_state example here.
 */
const seedLog = [
  '{"terminal_id": "term_001", "event": "iteration_start", "payload": {"iteration": 1, "current_task_id": "TASK-001", "total_tasks": 5}, "timestamp": "2026-03-14T10:00:00"}',
  '{"terminal_id": "term_001", "event": "iteration_end", "payload": {"iteration": 1, "tasks_completed": ["TASK-001"], "tasks_failed": [], "should_exit": false, "exit_reason": null}, "timestamp": "2026-03-14T10:05:31"}',
  '{"terminal_id": "term_001", "event": "iteration_start", "payload": {"iteration": 2, "current_task_id": "TASK-002", "total_tasks": 5}, "timestamp": "2026-03-14T10:05:32"}',
  '{"terminal_id": "term_001", "event": "iteration_end", "payload": {"iteration": 2, "tasks_completed": ["TASK-001", "TASK-002"], "tasks_failed": [], "should_exit": true, "exit_reason": "all_tasks_complete"}, "timestamp": "2026-03-14T10:10:45"}',
  `{"terminal_id": "term_001", "event": "loop_exit", "payload": {"total_iterations": 2, "total_tasks_completed": 2, "exit_reason": "all_tasks_complete", "final_state": ${JSON.stringify(seedState)}}, "timestamp": "2026-03-14T10:10:46"}`,
  '{"terminal_id": "term_001", "event": "error", "payload": {"error_type": "PlanParseError", "error_message": "Plan file not found", "iteration": 3, "current_task_id": "TASK-003"}, "timestamp": "2026-03-14T10:15:00"}',
];

/** A valid payload of every event, as the engine would log it. */
const examples: { readonly [Name in DecisionEventName]: DecisionEventPayloads[Name] } = {
  iteration_start: { iteration: 1, current_task_id: "TASK-001", total_tasks: 5 },
  iteration_end: {
    iteration: 1,
    tasks_completed: ["TASK-001"],
    tasks_failed: [],
    should_exit: false,
    exit_reason: null,
    checks: [
      {
        name: "completion_indicators",
        kind: "gate",
        value: 1,
        threshold: 2,
        required: true,
        met: false,
        detail: "completion indicators 1 of 2",
      },
    ],
  },
  loop_exit: {
    total_iterations: 2,
    total_tasks_completed: 2,
    exit_reason: "all_tasks_complete",
    final_state: null,
  },
  error: {
    error_type: "PlanParseError",
    error_message: "Plan file not found",
    iteration: 0,
    current_task_id: null,
    traceback: "PlanParseError: Plan file not found\n    at parsePlan",
  },
  rate_limit_wait: {
    reset_at: "2026-03-14T11:00:00.000Z",
    calls_made: 100,
    max_calls_per_hour: 100,
    wait_ms: 1_200_000,
  },
  usage_limit_wait: {
    reset_at: "2026-03-14T15:00:00.000Z",
    wait_ms: 18_000_000,
    message: "Claude usage limit reached; resets at 3pm",
  },
  task_failed: { task_id: "TASK-003", attempts: 3, reason: "tests still fail" },
  task_integrated: {
    task_id: "TASK-004",
    iteration: 9,
    branch: "loop/TASK-004",
    commit: "3f2c9a1d8e7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a",
    files_changed: 3,
    resolved: false,
  },
  merge_conflict: {
    task_id: "TASK-005",
    iteration: 10,
    files: ["src/routes.ts"],
    kept_branch: "loop/kept/TASK-005/1",
    merge_agent: false,
  },
  workspaces_recovered: {
    resumed: ["TASK-006"],
    kept: [{ task_id: "TASK-007", branch: "loop/kept/TASK-007/1" }],
    removed: [],
    integrations: [{ task_id: "TASK-004", outcome: "rolled_back" }],
  },
  task_retried: {
    task_id: "TASK-007",
    from_branch: "loop/kept/TASK-007/1",
    branch: "loop/TASK-007",
    was_given_up: true,
    attempts: 3,
  },
  state_recovered: {
    from: "backup",
    problem: "loop_state.json:1:53 invalid JSON: expected `]` to close the array",
  },
  lock_takeover: {
    previous_holder: { pid: 4242, host: "build-7", started_at: "2026-03-14T09:00:00.000Z" },
  },
  previous_agent_stopped: {
    iteration: 7,
    command: "claude",
    pgid: 4242,
    started_at: "2026-03-14T09:00:00.000Z",
    pids: [4242, 4250],
    signal: "SIGTERM",
    stopped: true,
  },
  verification: {
    passed: false,
    unmet: ["Login endpoint returns JWT token"],
    concerns: [{ kind: "blocker", text: "Blocked by the missing API key." }],
  },
  config_warning: {
    code: "EXIT_GATE_ALWAYS_OPEN",
    path: ["exit_policy", "min_completion_indicators"],
    message: "the exit gate is always open",
  },
  state_reset: {
    parts: ["breaker", "failed", "iterations", "session"],
    before: {
      circuit_breaker: "OPEN",
      failed_tasks: ["TASK-002"],
      task_attempts: { "TASK-002": 3 },
      iterations: 20,
      session_id: "sess-1",
      cost_usd: 1.25,
    },
    after: {
      circuit_breaker: "CLOSED",
      failed_tasks: [],
      task_attempts: {},
      iterations: 0,
      session_id: null,
      cost_usd: 1.25,
    },
  },
};

describe("the seed's decision log", () => {
  it.each(seedLog.map((line, index) => [index + 1, line] as const))(
    "line %i parses and validates",
    (_number, line) => {
      const parsed = parseDecisionEvent(line);
      expect(parsed.ok).toBe(true);
      const expected = JSON.parse(line);
      // A state without schema_version is version 1: the schema fills it in.
      if (expected.event === "loop_exit") {
        expected.payload.final_state = { schema_version: 1, ...expected.payload.final_state };
      }
      if (parsed.ok) expect(parsed.event).toEqual(expected);
    },
  );

  it("gives typed events, narrowed on their name", () => {
    const events = seedLog.map((line) => {
      const parsed = parseDecisionEvent(line);
      if (!parsed.ok) throw new Error(parsed.problem.message);
      return parsed.event;
    });
    const exits = events.filter(
      (event): event is Extract<DecisionEvent, { event: "loop_exit" }> =>
        event.event === "loop_exit",
    );
    expect(exits[0]?.payload.final_state?.loop_metadata.iterations).toBe(3);
    const names = events.map((event) => event.event);
    expect(names).toEqual([
      "iteration_start",
      "iteration_end",
      "iteration_start",
      "iteration_end",
      "loop_exit",
      "error",
    ]);
  });
});

describe("DECISION_EVENT_NAMES", () => {
  it("lists the seed's events first, then the engine's", () => {
    expect(DECISION_EVENT_NAMES).toEqual([
      "iteration_start",
      "iteration_end",
      "loop_exit",
      "error",
      "rate_limit_wait",
      "usage_limit_wait",
      "task_failed",
      "state_recovered",
      "lock_takeover",
      "verification",
      "config_warning",
      "state_reset",
      "previous_agent_stopped",
      "task_integrated",
      "merge_conflict",
      "workspaces_recovered",
      "task_retried",
    ]);
    expect(Object.isFrozen(DECISION_EVENT_NAMES)).toBe(true);
  });
});

describe("createDecisionEvent", () => {
  it.each(DECISION_EVENT_NAMES)("builds a valid %s event in the persisted shape", (name) => {
    const payload = examples[name];
    const event = createDecisionEvent("term_001", name, payload, "2026-03-14T10:00:00.000Z");
    expect(event).toEqual({
      terminal_id: "term_001",
      event: name,
      payload,
      timestamp: "2026-03-14T10:00:00.000Z",
    });
    expect(Object.keys(event)).toEqual(["terminal_id", "event", "payload", "timestamp"]);
    expect(DecisionEventSchema.safeParse(event).success).toBe(true);
    const line = JSON.stringify(event);
    expect(parseDecisionEvent(line)).toEqual({ ok: true, event });
  });

  it("keeps payload fields beyond the documented ones", () => {
    const payload = { ...examples.iteration_start, attempt: 2 };
    const event = createDecisionEvent("t", "iteration_start", payload, "2026-03-14T10:00:00Z");
    expect(event.payload).toEqual(payload);
  });

  function problemsOf(run: () => unknown): string[] {
    try {
      run();
    } catch (error) {
      if (!DecisionEventError.isInstance(error)) throw error;
      return error.issues.map((issue) => `${formatKeyPath(issue.path ?? [])}: ${issue.message}`);
    }
    throw new Error("expected a DecisionEventError");
  }

  it.each([
    [
      "iteration_start",
      { ...examples.iteration_start, iteration: 0 },
      "payload.iteration: expected an integer ≥ 1, got 0",
    ],
    [
      "iteration_start",
      { iteration: 1, total_tasks: 5 },
      "payload.current_task_id: missing: expected a non-empty string or null",
    ],
    [
      "iteration_end",
      { ...examples.iteration_end, tasks_completed: "TASK-001" },
      'payload.tasks_completed: expected a list of strings, got "TASK-001"',
    ],
    [
      "iteration_end",
      { ...examples.iteration_end, exit_reason: "finished" },
      `payload.exit_reason: expected one of ${EXIT_REASONS.join(", ")}, or null, got "finished"`,
    ],
    [
      "loop_exit",
      { ...examples.loop_exit, final_state: { ...seedState, completion_indicators: -1 } },
      "payload.final_state.completion_indicators: expected an integer ≥ 0, got -1",
    ],
    [
      "error",
      { ...examples.error, error_type: "" },
      'payload.error_type: expected a non-empty string, got ""',
    ],
    [
      "rate_limit_wait",
      { ...examples.rate_limit_wait, reset_at: "in an hour" },
      'payload.reset_at: expected an ISO 8601 timestamp like 2026-03-14T10:00:00Z, got "in an hour"',
    ],
    [
      "state_recovered",
      { ...examples.state_recovered, from: "nowhere" },
      'payload.from: expected one of backup, fresh, got "nowhere"',
    ],
    [
      "lock_takeover",
      { previous_holder: { pid: -1, host: "h", started_at: "2026-03-14T10:00:00Z" } },
      "payload.previous_holder.pid: expected an integer ≥ 0, got -1",
    ],
    [
      "verification",
      { ...examples.verification, concerns: [{ kind: "worry", text: "x" }] },
      'payload.concerns[0].kind: expected one of issue, blocker, correction, got "worry"',
    ],
  ] as const)("rejects a bad %s payload with its path", (name, payload, problem) => {
    expect(
      problemsOf(() =>
        createDecisionEvent(
          "t",
          name,
          payload as unknown as DecisionEventPayloads[typeof name],
          "2026-03-14T10:00:00Z",
        ),
      ),
    ).toEqual([problem]);
  });

  it("rejects an unsafe terminal id, a bad timestamp and an unknown name", () => {
    expect(
      problemsOf(() =>
        createDecisionEvent("../x", "iteration_start", examples.iteration_start, "now"),
      ),
    ).toEqual([
      'terminal_id: expected a safe terminal id (1 to 64 of A-Z a-z 0-9 . _ -), got "../x"',
      'timestamp: expected an ISO 8601 timestamp like 2026-03-14T10:00:00Z, got "now"',
    ]);
    expect(
      problemsOf(() =>
        createDecisionEvent(
          "t",
          "iteration_begin" as "iteration_start",
          examples.iteration_start,
          "2026-03-14T10:00:00Z",
        ),
      ),
    ).toEqual([
      `event: unknown value "iteration_begin": expected one of ${DECISION_EVENT_NAMES.join(", ")}`,
    ]);
  });

  it("throws a DecisionEventError with a stable code and a readable message", () => {
    try {
      createDecisionEvent(
        "t",
        "task_failed",
        { task_id: "", attempts: 1, reason: "x" },
        "2026-03-14T10:00:00Z",
      );
    } catch (error) {
      expect(DecisionEventError.isInstance(error)).toBe(true);
      expect((error as DecisionEventError).code).toBe("DECISION_EVENT_ERROR");
      expect((error as DecisionEventError).event).toBe("task_failed");
      expect((error as Error).message).toBe(
        'Invalid decision event "task_failed" (1 problem):\n  payload.task_id: expected a non-empty string, got ""',
      );
      return;
    }
    throw new Error("expected a throw");
  });
});
