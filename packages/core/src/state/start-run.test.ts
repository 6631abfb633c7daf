import { describe, expect, it } from "vitest";
import type { LoopState } from "./loop-state.js";
import { LoopStateSchema } from "./loop-state.js";
import { startRun } from "./start-run.js";

/** The state a previous run left when it exited on `done_signals`, with every field set. */
const previous: LoopState = LoopStateSchema.parse({
  schema_version: 1,
  current_task_id: "TASK-004",
  completed_tasks: ["TASK-001", "TASK-002"],
  failed_tasks: ["TASK-003"],
  completion_indicators: 3,
  loop_metadata: {
    plan_path: "plan.md",
    started_at: "2026-03-14T10:00:00.000Z",
    last_update: "2026-03-14T11:00:00.000Z",
    iterations: 9,
  },
  task_attempts: { "TASK-003": 3, "TASK-004": 1 },
  circuit_breaker: {
    state: "HALF_OPEN",
    no_progress_streak: 2,
    same_error_streak: 0,
    last_error_fingerprint: null,
    permission_denial_streak: 0,
    opened_at: null,
    trip: null,
    times_opened: 1,
  },
  rate_window: { window_start: "2026-03-14T11:00:00.000Z", calls_made: 9 },
  cost_usd: 4.5,
  session_id: "session-abc",
  stop_counters: { test_only_streak: 1, done_signal_streak: 2, question_only_streak: 1 },
  run: {
    run_id: "run-1",
    started_at: "2026-03-14T10:00:00.000Z",
    status: "exited",
    exit_reason: "done_signals",
    iterations_at_start: 0,
    cost_usd_at_start: 0,
  },
  from_a_newer_version: true,
});

describe("startRun", () => {
  const now = "2026-03-15T08:00:00.000Z";
  const started = startRun(previous, { runId: "run-2", now });

  it("resets exactly the per-run fields", () => {
    expect(started).toEqual({
      ...previous,
      completion_indicators: 0,
      stop_counters: {
        test_only_streak: 0,
        done_signal_streak: 0,
        question_only_streak: 0,
        exit_signal_streak: 0,
      },
      loop_metadata: { ...previous.loop_metadata, last_update: now },
      run: {
        run_id: "run-2",
        started_at: now,
        status: "running",
        exit_reason: null,
        iterations_at_start: 9,
        cost_usd_at_start: 4.5,
      },
    });
  });

  it("keeps what a resumed loop needs", () => {
    expect(started.loop_metadata.iterations).toBe(9);
    expect(started.loop_metadata.started_at).toBe(previous.loop_metadata.started_at);
    expect(started.completed_tasks).toEqual(["TASK-001", "TASK-002"]);
    expect(started.failed_tasks).toEqual(["TASK-003"]);
    expect(started.task_attempts).toEqual({ "TASK-003": 3, "TASK-004": 1 });
    expect(started.circuit_breaker).toEqual(previous.circuit_breaker);
    expect(started.rate_window).toEqual(previous.rate_window);
    expect(started.cost_usd).toBe(4.5);
    expect(started.session_id).toBe("session-abc");
    expect(started.current_task_id).toBe("TASK-004");
    expect(started.from_a_newer_version).toBe(true);
  });

  it("gives a valid state and leaves its input unchanged", () => {
    expect(LoopStateSchema.safeParse(started).success).toBe(true);
    expect(previous.stop_counters?.done_signal_streak).toBe(2);
    expect(previous.run?.run_id).toBe("run-1");
  });

  it("starts the first run of a seed-written state (no cost, no run yet)", () => {
    const seed = LoopStateSchema.parse({
      current_task_id: null,
      completed_tasks: [],
      failed_tasks: [],
      completion_indicators: 1,
      loop_metadata: {
        plan_path: "plan.md",
        started_at: "2026-03-14T10:00:00",
        last_update: "2026-03-14T10:00:00",
        iterations: 2,
      },
    });
    const first = startRun(seed, { runId: "r", now });
    expect(first.run).toEqual({
      run_id: "r",
      started_at: now,
      status: "running",
      exit_reason: null,
      iterations_at_start: 2,
      cost_usd_at_start: 0,
    });
    expect(first.completion_indicators).toBe(0);
    expect(LoopStateSchema.safeParse(first).success).toBe(true);
  });
});
