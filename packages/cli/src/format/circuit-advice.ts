import { type LoopConfig, type LoopState, toCircuitBreakerState } from "@loop/core";
import { formatUtcClock } from "./format-clock.js";

/** Why the breaker opened, in words: `after 5 iterations in a row without progress`. */
function tripText(state: LoopState): string {
  const breaker = toCircuitBreakerState(state.circuit_breaker);
  switch (breaker.trip) {
    case "no_progress":
      return `after ${breaker.noProgressStreak} iterations in a row without progress`;
    case "same_error":
      return `after the same error ${breaker.sameErrorStreak} times in a row`;
    case "permission_denials":
      return `after ${breaker.permissionDenialStreak} iterations in a row with tools denied`;
    default:
      return "";
  }
}

/**
 * Why the circuit breaker stopped the loop and the ways out: wait for the cooldown (when it
 * half-opens, in UTC), or `loop reset`. After a reset that closed it, says so instead.
 *
 * @param state - the loop's state now.
 * @param config - the config, for `circuit_breaker.cooldown_minutes`.
 * @param now - the current time, epoch milliseconds.
 * @returns the advice lines: why and what to do first, details after.
 */
export function circuitAdvice(state: LoopState, config: LoopConfig, now: number): string[] {
  const breaker = toCircuitBreakerState(state.circuit_breaker);
  if (breaker.state !== "OPEN") {
    return [`the circuit breaker is ${breaker.state} now (reset since): \`loop run\` goes on`];
  }
  const trip = tripText(state);
  const task = state.current_task_id === null ? "" : ` on ${state.current_task_id}`;
  const why = `the circuit breaker opened${trip === "" ? "" : ` ${trip}`}${task}`;
  const retryAt = (breaker.openedAt ?? now) + config.circuit_breaker.cooldown_minutes * 60_000;
  const todo =
    retryAt > now
      ? `it half-opens at ${formatUtcClock(retryAt, now)} (circuit_breaker.cooldown_minutes), when \`loop run\` tries again, or run \`loop reset\` to close it now`
      : "its cooldown is over: `loop run` tries again, or `loop reset` closes it";
  const lines = [`${why}; ${todo}`];
  if (breaker.trip === "permission_denials") {
    lines.push(
      "allow the agent the tools it was denied (its settings, or `loop run --permission-mode acceptEdits`)",
    );
  }
  return lines;
}
