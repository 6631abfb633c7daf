import { describe, expect, it } from "vitest";
import { PAYLOAD_SCHEMAS } from "../observe/decision-event-payloads.js";
import { type LoopState, LoopStateSchema } from "./loop-state.js";
import { DEFAULT_RESET_PARTS, RESET_PARTS, resetState } from "./reset-state.js";

/** A loop stopped by its open breaker with two tasks given up and its iterations used up. */
const stopped: LoopState = LoopStateSchema.parse({
  schema_version: 1,
  current_task_id: "TASK-003",
  completed_tasks: ["TASK-001"],
  failed_tasks: ["TASK-002", "TASK-004"],
  completion_indicators: 1,
  loop_metadata: {
    plan_path: "/project/plan.md",
    started_at: "2026-03-14T10:00:00.000Z",
    last_update: "2026-03-14T11:00:00.000Z",
    iterations: 20,
  },
  task_attempts: { "TASK-002": 3, "TASK-003": 2, "TASK-004": 3 },
  circuit_breaker: {
    state: "OPEN",
    no_progress_streak: 5,
    same_error_streak: 2,
    last_error_fingerprint: "e3b0c44298fc1c14",
    permission_denial_streak: 1,
    opened_at: "2026-03-14T11:00:00.000Z",
    trip: "no_progress",
    times_opened: 2,
  },
  rate_window: { window_start: "2026-03-14T11:00:00.000Z", calls_made: 20 },
  cost_usd: 4.5,
  session_id: "session-abc",
  stop_counters: { test_only_streak: 1, done_signal_streak: 0, question_only_streak: 2 },
  run: {
    run_id: "run-2",
    started_at: "2026-03-14T10:30:00.000Z",
    status: "exited",
    exit_reason: "circuit_open",
    iterations_at_start: 12,
    cost_usd_at_start: 2.5,
  },
  from_a_newer_version: { kept: true },
});

const now = "2026-03-14T12:00:00.000Z";

describe("resetState", () => {
  it("by default closes the breaker, forgets given-up tasks, attempts, iterations and the session, and keeps the cost", () => {
    const reset = resetState(stopped, { parts: DEFAULT_RESET_PARTS, now });
    expect(reset.parts).toEqual(["breaker", "failed", "iterations", "session"]);
    expect(reset.state).toEqual({
      ...stopped,
      failed_tasks: [],
      task_attempts: {},
      completion_indicators: 0,
      stop_counters: {
        test_only_streak: 0,
        done_signal_streak: 0,
        question_only_streak: 0,
        exit_signal_streak: 0,
      },
      circuit_breaker: {
        state: "CLOSED",
        no_progress_streak: 0,
        same_error_streak: 0,
        last_error_fingerprint: null,
        permission_denial_streak: 0,
        opened_at: null,
        trip: null,
        times_opened: 2,
      },
      session_id: null,
      loop_metadata: { ...stopped.loop_metadata, iterations: 0, last_update: now },
      run: { ...stopped.run, iterations_at_start: 0 },
    });
    expect(reset.state.cost_usd).toBe(4.5);
    expect(LoopStateSchema.safeParse(reset.state).success).toBe(true);
  });

  it("reports the changed fields before and after", () => {
    const reset = resetState(stopped, { parts: DEFAULT_RESET_PARTS, now });
    expect(reset.before).toEqual({
      circuit_breaker: "OPEN",
      failed_tasks: ["TASK-002", "TASK-004"],
      task_attempts: { "TASK-002": 3, "TASK-003": 2, "TASK-004": 3 },
      iterations: 20,
      session_id: "session-abc",
      cost_usd: 4.5,
    });
    expect(reset.after).toEqual({
      circuit_breaker: "CLOSED",
      failed_tasks: [],
      task_attempts: {},
      iterations: 0,
      session_id: null,
      cost_usd: 4.5,
    });
    const payload = { parts: reset.parts, before: reset.before, after: reset.after };
    expect(PAYLOAD_SCHEMAS.state_reset.safeParse(payload).success).toBe(true);
  });

  it("resets only the parts asked for", () => {
    const breaker = resetState(stopped, { parts: ["breaker"], now }).state;
    expect(breaker.circuit_breaker?.state).toBe("CLOSED");
    expect(breaker.failed_tasks).toEqual(stopped.failed_tasks);
    expect(breaker.loop_metadata.iterations).toBe(20);
    expect(breaker.session_id).toBe("session-abc");

    const iterations = resetState(stopped, { parts: ["iterations"], now }).state;
    expect(iterations.loop_metadata.iterations).toBe(0);
    expect(iterations.circuit_breaker).toEqual(stopped.circuit_breaker);
    expect(iterations.task_attempts).toEqual(stopped.task_attempts);
  });

  it("resets the cost, and this run's cost baseline, only when asked for by name", () => {
    expect(DEFAULT_RESET_PARTS).not.toContain("cost");
    const reset = resetState(stopped, { parts: ["cost"], now });
    expect(reset.state.cost_usd).toBe(0);
    expect(reset.state.run?.cost_usd_at_start).toBe(0);
    expect(reset.state.loop_metadata.iterations).toBe(20);
  });

  it("never touches completed tasks, the current task, the rate window, why the run exited or unknown fields", () => {
    const reset = resetState(stopped, { parts: RESET_PARTS, now }).state;
    expect(reset.completed_tasks).toEqual(["TASK-001"]);
    expect(reset.current_task_id).toBe("TASK-003");
    expect(reset.rate_window).toEqual(stopped.rate_window);
    expect(reset.run).toMatchObject({ status: "exited", exit_reason: "circuit_open" });
    expect(reset.from_a_newer_version).toEqual({ kept: true });
  });

  it("is pure and takes each part once", () => {
    const copy = structuredClone(stopped);
    const reset = resetState(stopped, { parts: ["session", "breaker", "session"], now });
    expect(stopped).toEqual(copy);
    expect(reset.parts).toEqual(["breaker", "session"]);
  });

  it("closes an absent breaker (a seed-written state) and keeps a state without a run", () => {
    const seed = LoopStateSchema.parse({
      current_task_id: null,
      completed_tasks: [],
      failed_tasks: ["TASK-009"],
      completion_indicators: 0,
      loop_metadata: {
        plan_path: "plan.md",
        started_at: "2026-03-14T10:00:00",
        last_update: "2026-03-14T10:00:00",
        iterations: 3,
      },
    });
    const reset = resetState(seed, { parts: DEFAULT_RESET_PARTS, now });
    expect(reset.before.circuit_breaker).toBe("CLOSED");
    expect(reset.state.circuit_breaker?.state).toBe("CLOSED");
    expect(reset.state.run).toBeUndefined();
    expect(reset.state.failed_tasks).toEqual([]);
    expect(LoopStateSchema.safeParse(reset.state).success).toBe(true);
  });
});
