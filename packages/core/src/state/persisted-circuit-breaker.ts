import type { z } from "zod";
import { type CircuitBreakerState, initialCircuitBreakerState } from "../policy/circuit-breaker.js";
import { formatTimestamp, parseTimestamp } from "./iso-timestamp.js";
import {
  choiceField,
  countField,
  nullableChoiceField,
  nullableIdField,
  nullableTimestampField,
  sectionField,
} from "./state-fields.js";

/**
 * `loop_state.json`'s `circuit_breaker`: the policy's {@link CircuitBreakerState} in snake_case,
 * with `opened_at` as an ISO 8601 timestamp. Kept so an open circuit stays open across restarts
 * and its streaks survive a crash.
 */
export const PersistedCircuitBreakerSchema = sectionField(
  {
    state: choiceField(["CLOSED", "HALF_OPEN", "OPEN"], "The breaker's state."),
    no_progress_streak: countField("Iterations in a row with no progress."),
    same_error_streak: countField("Iterations in a row that ended on the same error."),
    last_error_fingerprint: nullableIdField(
      "The error fingerprint of the last iteration; null when it ended without an error.",
    ),
    permission_denial_streak: countField("Iterations in a row with a denied tool use."),
    opened_at: nullableTimestampField("When the breaker last opened; null if it is not open."),
    trip: nullableChoiceField(
      ["no_progress", "same_error", "permission_denials"],
      "Why the breaker last opened; null if it is not open.",
    ),
    times_opened: countField("How many times the breaker has opened in this loop's life."),
  },
  "The circuit breaker's state.",
);

/** `loop_state.json`'s `circuit_breaker`, as persisted (snake_case). */
export type PersistedCircuitBreaker = z.output<typeof PersistedCircuitBreakerSchema>;

/**
 * Reads the persisted `circuit_breaker` as the policy's {@link CircuitBreakerState}. An absent
 * breaker (a state written before the engine kept one) is a closed breaker with no history.
 * Unknown fields of the persisted form are not carried over.
 *
 * @param persisted - `state.circuit_breaker`, possibly absent.
 * @returns the breaker, camelCase, `openedAt` in epoch milliseconds.
 */
export function toCircuitBreakerState(
  persisted: PersistedCircuitBreaker | null | undefined,
): CircuitBreakerState {
  if (persisted === null || persisted === undefined) return initialCircuitBreakerState();
  return {
    state: persisted.state,
    noProgressStreak: persisted.no_progress_streak,
    sameErrorStreak: persisted.same_error_streak,
    lastErrorFingerprint: persisted.last_error_fingerprint,
    permissionDenialStreak: persisted.permission_denial_streak,
    openedAt: persisted.opened_at === null ? null : parseTimestamp(persisted.opened_at),
    trip: persisted.trip,
    timesOpened: persisted.times_opened,
  };
}

/**
 * Writes the policy's {@link CircuitBreakerState} as `loop_state.json`'s `circuit_breaker`.
 *
 * @param breaker - the breaker, as the policy returns it.
 * @returns the persisted form: snake_case, `opened_at` as an ISO 8601 UTC timestamp.
 */
export function fromCircuitBreakerState(breaker: CircuitBreakerState): PersistedCircuitBreaker {
  return {
    state: breaker.state,
    no_progress_streak: breaker.noProgressStreak,
    same_error_streak: breaker.sameErrorStreak,
    last_error_fingerprint: breaker.lastErrorFingerprint,
    permission_denial_streak: breaker.permissionDenialStreak,
    opened_at: breaker.openedAt === null ? null : formatTimestamp(breaker.openedAt),
    trip: breaker.trip,
    times_opened: breaker.timesOpened,
  };
}
