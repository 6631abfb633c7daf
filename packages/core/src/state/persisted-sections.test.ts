import { describe, expect, it } from "vitest";
import { type CircuitBreakerState, initialCircuitBreakerState } from "../policy/circuit-breaker.js";
import { initialStopCounters } from "../policy/stop-counters.js";
import { LoopStateSchema } from "./loop-state.js";
import { fromCircuitBreakerState, toCircuitBreakerState } from "./persisted-circuit-breaker.js";
import { fromRateWindow, toRateWindow } from "./persisted-rate-window.js";
import { fromStopCounters, toStopCounters } from "./persisted-stop-counters.js";

const seedState = {
  current_task_id: null,
  completed_tasks: [],
  failed_tasks: [],
  completion_indicators: 0,
  loop_metadata: {
    plan_path: "plan.md",
    started_at: "2026-03-14T10:00:00",
    last_update: "2026-03-14T10:00:00",
    iterations: 0,
  },
};

const openBreaker: CircuitBreakerState = {
  state: "OPEN",
  noProgressStreak: 5,
  sameErrorStreak: 2,
  lastErrorFingerprint: "e3b0c44298fc1c14",
  permissionDenialStreak: 1,
  openedAt: Date.UTC(2026, 2, 14, 10, 15),
  trip: "no_progress",
  timesOpened: 3,
};

describe("circuit breaker conversion", () => {
  it("writes snake_case with an ISO opened_at that the schema accepts, and reads it back", () => {
    const persisted = fromCircuitBreakerState(openBreaker);
    expect(persisted).toEqual({
      state: "OPEN",
      no_progress_streak: 5,
      same_error_streak: 2,
      last_error_fingerprint: "e3b0c44298fc1c14",
      permission_denial_streak: 1,
      opened_at: "2026-03-14T10:15:00.000Z",
      trip: "no_progress",
      times_opened: 3,
    });
    const state = LoopStateSchema.parse({ ...seedState, circuit_breaker: persisted });
    expect(toCircuitBreakerState(state.circuit_breaker)).toEqual(openBreaker);
  });

  it("round-trips a closed breaker", () => {
    const closed = initialCircuitBreakerState();
    expect(toCircuitBreakerState(fromCircuitBreakerState(closed))).toEqual(closed);
  });

  it("reads an absent breaker (a seed-written state) as closed with no history", () => {
    const state = LoopStateSchema.parse(seedState);
    expect(toCircuitBreakerState(state.circuit_breaker)).toEqual(initialCircuitBreakerState());
  });
});

describe("rate window conversion", () => {
  it("writes window_start as ISO and reads it back", () => {
    const window = { windowStart: Date.UTC(2026, 2, 14, 10), callsMade: 42 };
    const persisted = fromRateWindow(window);
    expect(persisted).toEqual({ window_start: "2026-03-14T10:00:00.000Z", calls_made: 42 });
    const state = LoopStateSchema.parse({ ...seedState, rate_window: persisted });
    expect(toRateWindow(state.rate_window)).toEqual(window);
  });

  it("keeps null (no call made yet) and reads an absent window as null", () => {
    expect(fromRateWindow(null)).toBeNull();
    expect(toRateWindow(null)).toBeNull();
    expect(toRateWindow(LoopStateSchema.parse(seedState).rate_window)).toBeNull();
  });
});

describe("stop counters conversion", () => {
  it("round-trips through snake_case", () => {
    const counters = {
      testOnlyStreak: 2,
      doneSignalStreak: 1,
      questionOnlyStreak: 0,
      exitSignalStreak: 3,
    };
    const persisted = fromStopCounters(counters);
    expect(persisted).toEqual({
      test_only_streak: 2,
      done_signal_streak: 1,
      question_only_streak: 0,
      exit_signal_streak: 3,
    });
    expect(
      toStopCounters(
        LoopStateSchema.parse({ ...seedState, stop_counters: persisted }).stop_counters,
      ),
    ).toEqual(counters);
  });

  it("reads counters saved before exit_signal_streak existed with that streak at zero", () => {
    const saved = { test_only_streak: 1, done_signal_streak: 2, question_only_streak: 0 };
    const state = LoopStateSchema.parse({ ...seedState, stop_counters: saved });
    expect(toStopCounters(state.stop_counters)).toEqual({
      testOnlyStreak: 1,
      doneSignalStreak: 2,
      questionOnlyStreak: 0,
      exitSignalStreak: 0,
    });
  });

  it("reads absent counters as zero", () => {
    expect(toStopCounters(undefined)).toEqual(initialStopCounters());
  });
});
