import { describe, expect, it } from "vitest";
import {
  type CircuitBreakerState,
  type CircuitObservation,
  checkCircuit,
  initialCircuitBreakerState,
  observeIteration,
} from "./circuit-breaker.js";

const thresholds = {
  noProgressLoops: 5,
  sameErrorLoops: 5,
  permissionDenialLoops: 3,
  cooldownMs: 30 * 60_000,
};
const idle: CircuitObservation = {
  progress: false,
  errorFingerprint: null,
  permissionDenied: false,
  questionOnly: false,
};
const progress: CircuitObservation = { ...idle, progress: true };

function feed(observations: CircuitObservation[], start = initialCircuitBreakerState()) {
  const states: CircuitBreakerState[] = [];
  let state = start;
  observations.forEach((observation, index) => {
    state = observeIteration(state, observation, thresholds, 1_000 * (index + 1));
    states.push(state);
  });
  return states;
}

describe("circuit breaker", () => {
  it("opens on exactly the no_progress_loops-th iteration without progress", () => {
    const states = feed(Array(5).fill(idle));
    expect(states.map((state) => state.state)).toEqual([
      "CLOSED",
      "CLOSED",
      "HALF_OPEN",
      "HALF_OPEN",
      "OPEN",
    ]);
    expect(states[4]).toMatchObject({ trip: "no_progress", openedAt: 5_000, timesOpened: 1 });
  });

  it("closes again on progress from HALF_OPEN", () => {
    const states = feed([idle, idle, idle, progress]);
    expect(states[2]?.state).toBe("HALF_OPEN");
    expect(states[3]).toMatchObject({ state: "CLOSED", noProgressStreak: 0 });
  });

  it("opens on the same error fingerprint same_error_loops times in a row, even with progress", () => {
    const failing = { ...progress, errorFingerprint: "abc123" };
    const states = feed(Array(5).fill(failing));
    expect(states[3]?.state).toBe("HALF_OPEN");
    expect(states[4]).toMatchObject({ state: "OPEN", trip: "same_error", sameErrorStreak: 5 });
  });

  it("restarts the same-error streak on a different error and clears it without one", () => {
    const states = feed([
      { ...progress, errorFingerprint: "a" },
      { ...progress, errorFingerprint: "a" },
      { ...progress, errorFingerprint: "b" },
      progress,
    ]);
    expect(states.map((state) => state.sameErrorStreak)).toEqual([1, 2, 1, 0]);
  });

  it("opens after repeated permission denials", () => {
    const denied = { ...progress, permissionDenied: true };
    const states = feed([denied, denied, denied]);
    expect(states[2]).toMatchObject({ state: "OPEN", trip: "permission_denials" });
    expect(feed([denied, denied, progress])[2]?.permissionDenialStreak).toBe(0);
  });

  it("treats a question-only iteration as neither progress nor no progress", () => {
    const question = { ...idle, questionOnly: true };
    const states = feed([idle, idle, question, question, question, idle]);
    expect(states.map((state) => state.noProgressStreak)).toEqual([1, 2, 2, 2, 2, 3]);
    expect(states.every((state) => state.state !== "OPEN")).toBe(true);
  });

  it("stays open during the cooldown and allows a trial after it", () => {
    const open = feed(Array(5).fill(idle)).at(-1) as CircuitBreakerState;
    const during = checkCircuit(open, open.openedAt ?? 0, thresholds);
    expect(during).toEqual({ canRun: false, breaker: open, retryAt: 5_000 + 30 * 60_000 });
    const justBefore = checkCircuit(open, 5_000 + 30 * 60_000 - 1, thresholds);
    expect(justBefore.canRun).toBe(false);
    const after = checkCircuit(open, 5_000 + 30 * 60_000, thresholds);
    expect(after.canRun).toBe(true);
    expect(after.breaker).toMatchObject({ state: "HALF_OPEN", noProgressStreak: 5, trip: null });
  });

  it("reopens at once when the trial after a cooldown makes no progress, closes on progress", () => {
    const open = feed(Array(5).fill(idle)).at(-1) as CircuitBreakerState;
    const trial = checkCircuit(open, 10 ** 9, thresholds).breaker;
    const failed = observeIteration(trial, idle, thresholds, 10 ** 9 + 1);
    expect(failed).toMatchObject({ state: "OPEN", openedAt: 10 ** 9 + 1, timesOpened: 2 });
    const question = { ...idle, questionOnly: true };
    expect(observeIteration(trial, question, thresholds, 10 ** 9 + 1).state).toBe("HALF_OPEN");
    const recovered = observeIteration(trial, progress, thresholds, 10 ** 9 + 1);
    expect(recovered).toMatchObject({ state: "CLOSED", noProgressStreak: 0, timesOpened: 1 });
  });

  it("lets a closed or half-open breaker run", () => {
    const state = initialCircuitBreakerState();
    expect(checkCircuit(state, 0, thresholds)).toEqual({
      canRun: true,
      breaker: state,
      retryAt: null,
    });
  });

  it("survives a JSON round trip (it is kept in the loop state)", () => {
    const states = feed([idle, idle, { ...idle, errorFingerprint: "x" }]);
    const last = states.at(-1);
    expect(JSON.parse(JSON.stringify(last))).toEqual(last);
  });

  it("does not change the state it is given", () => {
    const state = initialCircuitBreakerState();
    const frozen = Object.freeze({ ...state });
    expect(() => observeIteration(frozen, idle, thresholds, 1)).not.toThrow();
    expect(frozen).toEqual(state);
  });
});
