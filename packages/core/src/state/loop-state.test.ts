import { describe, expect, it } from "vitest";
import { formatKeyPath } from "../errors/diagnostic.js";
import { EXIT_REASONS } from "../policy/exit-reasons.js";
import { createInitialState } from "./initial-state.js";
import { LoopStateSchema } from "./loop-state.js";
import { schemaDiagnostics } from "./schema-diagnostics.js";
import { StateValidationError } from "./state-validation-error.js";

/** The seed's canonical loop_state.json example, verbatim. */
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

/** Every problem of `value` as `path: message`. */
function problems(value: unknown): string[] {
  const result = LoopStateSchema.safeParse(value);
  if (result.success) return [];
  return schemaDiagnostics(result.error.issues, value).map(
    (issue) => `${formatKeyPath(issue.path ?? [])}: ${issue.message}`,
  );
}

describe("LoopStateSchema", () => {
  it("accepts the seed's example, zone-less timestamps included, as schema version 1", () => {
    const state = LoopStateSchema.parse(seedState);
    expect(state).toEqual({ schema_version: 1, ...seedState });
  });

  it.each([
    [
      "negative completion indicators",
      { ...seedState, completion_indicators: -1 },
      "completion_indicators: expected an integer ≥ 0, got -1",
    ],
    [
      "string iterations",
      { ...seedState, loop_metadata: { ...seedState.loop_metadata, iterations: "3" } },
      'loop_metadata.iterations: expected an integer ≥ 0, got "3"',
    ],
    [
      "a bad timestamp",
      { ...seedState, loop_metadata: { ...seedState.loop_metadata, last_update: "yesterday" } },
      'loop_metadata.last_update: expected an ISO 8601 timestamp like 2026-03-14T10:00:00Z, got "yesterday"',
    ],
    [
      "an impossible date",
      {
        ...seedState,
        loop_metadata: { ...seedState.loop_metadata, started_at: "2026-02-30T10:00:00" },
      },
      'loop_metadata.started_at: expected an ISO 8601 timestamp like 2026-03-14T10:00:00Z, got "2026-02-30T10:00:00"',
    ],
    [
      "a missing loop_metadata",
      { ...seedState, loop_metadata: undefined },
      "loop_metadata: missing: expected a mapping (an object)",
    ],
    [
      "a non-string task id",
      { ...seedState, completed_tasks: ["TASK-001", 2] },
      "completed_tasks[1]: expected a non-empty string, got 2",
    ],
    [
      "an empty current task id",
      { ...seedState, current_task_id: "" },
      'current_task_id: expected a non-empty string or null, got ""',
    ],
    [
      "a fractional attempt count",
      { ...seedState, task_attempts: { "TASK-001": 1.5 } },
      "task_attempts.TASK-001: expected an integer ≥ 0, got 1.5",
    ],
    [
      "a negative cost",
      { ...seedState, cost_usd: -0.5 },
      "cost_usd: expected a number ≥ 0, got -0.5",
    ],
    [
      "an unknown breaker state",
      {
        ...seedState,
        circuit_breaker: {
          state: "BROKEN",
          no_progress_streak: 0,
          same_error_streak: 0,
          last_error_fingerprint: null,
          permission_denial_streak: 0,
          opened_at: null,
          trip: null,
          times_opened: 0,
        },
      },
      'circuit_breaker.state: expected one of CLOSED, HALF_OPEN, OPEN, got "BROKEN"',
    ],
    [
      "an unknown exit reason",
      {
        ...seedState,
        run: {
          run_id: "r1",
          started_at: "2026-03-14T10:00:00Z",
          status: "exited",
          exit_reason: "bored",
          iterations_at_start: 0,
          cost_usd_at_start: 0,
        },
      },
      `run.exit_reason: expected one of ${EXIT_REASONS.join(", ")}, or null, got "bored"`,
    ],
    [
      "schema version 0",
      { ...seedState, schema_version: 0 },
      "schema_version: expected 1 (the loop_state schema version this package reads), got 0",
    ],
  ])("reports %s with its key path", (_name, value, problem) => {
    expect(problems(value)).toEqual([problem]);
  });

  it("reports every problem at once", () => {
    const value = { ...seedState, completion_indicators: -1, failed_tasks: "none" };
    expect(problems(value)).toEqual([
      'failed_tasks: expected a list of strings, got "none"',
      "completion_indicators: expected an integer ≥ 0, got -1",
    ]);
  });

  it("refuses a document that is not an object", () => {
    expect(problems([])).toEqual([
      ": expected a JSON object (the loop_state document), got a list",
    ]);
    expect(problems(null)).toEqual([
      ": expected a JSON object (the loop_state document), got null",
    ]);
  });

  it("keeps unknown fields, top-level and nested, through a round trip", () => {
    const newer = {
      ...seedState,
      schema_version: 1,
      added_by_a_newer_version: { anything: [1, 2] },
      loop_metadata: { ...seedState.loop_metadata, host: "build-7" },
    };
    const parsed = LoopStateSchema.parse(JSON.parse(JSON.stringify(newer)));
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(newer);
  });

  it("accepts timestamps with zones and fractions", () => {
    for (const timestamp of [
      "2026-03-14T10:00:00Z",
      "2026-03-14T10:00:00.123Z",
      "2026-03-14T10:00:00.123456+02:00",
      "2026-03-14T10:00:00-0530",
    ]) {
      const value = {
        ...seedState,
        loop_metadata: { ...seedState.loop_metadata, started_at: timestamp },
      };
      expect(problems(value), timestamp).toEqual([]);
    }
  });

  it("accepts every engine field", () => {
    const state = {
      ...seedState,
      task_attempts: { "TASK-003": 2 },
      circuit_breaker: {
        state: "OPEN",
        no_progress_streak: 5,
        same_error_streak: 0,
        last_error_fingerprint: "abc",
        permission_denial_streak: 0,
        opened_at: "2026-03-14T10:15:00.000Z",
        trip: "no_progress",
        times_opened: 1,
      },
      rate_window: { window_start: "2026-03-14T10:00:00.000Z", calls_made: 42 },
      cost_usd: 1.25,
      session_id: "session-1",
      stop_counters: { test_only_streak: 1, done_signal_streak: 0, question_only_streak: 0 },
      run: {
        run_id: "run-1",
        started_at: "2026-03-14T10:00:00.000Z",
        status: "running",
        exit_reason: null,
        iterations_at_start: 0,
        cost_usd_at_start: 0,
      },
    };
    expect(problems(state)).toEqual([]);
    expect(problems({ ...state, rate_window: null })).toEqual([]);
  });
});

describe("createInitialState", () => {
  it("builds a valid state with nothing done yet", () => {
    const state = createInitialState({ planPath: "plan.md", now: "2026-03-14T10:00:00.000Z" });
    expect(state).toEqual({
      schema_version: 1,
      current_task_id: null,
      completed_tasks: [],
      failed_tasks: [],
      completion_indicators: 0,
      loop_metadata: {
        plan_path: "plan.md",
        started_at: "2026-03-14T10:00:00.000Z",
        last_update: "2026-03-14T10:00:00.000Z",
        iterations: 0,
      },
      task_attempts: {},
      circuit_breaker: {
        state: "CLOSED",
        no_progress_streak: 0,
        same_error_streak: 0,
        last_error_fingerprint: null,
        permission_denial_streak: 0,
        opened_at: null,
        trip: null,
        times_opened: 0,
      },
      rate_window: null,
      cost_usd: 0,
      session_id: null,
      stop_counters: {
        test_only_streak: 0,
        done_signal_streak: 0,
        question_only_streak: 0,
        exit_signal_streak: 0,
      },
    });
    expect(LoopStateSchema.safeParse(state).success).toBe(true);
  });

  it("refuses a time that is not a timestamp", () => {
    expect(() => createInitialState({ planPath: "plan.md", now: "now" })).toThrow(
      StateValidationError,
    );
  });
});
