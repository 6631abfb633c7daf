import { schemaDiagnostics } from "../state/schema-diagnostics.js";
import { type DecisionEventOf, DecisionEventSchema } from "./decision-event.js";
import { DecisionEventError } from "./decision-event-error.js";
import type { DecisionEventName, DecisionEventPayloads } from "./decision-event-payloads.js";

/**
 * Builds a decision event, checked against its schema: what the engine hands its `Logger`.
 *
 * @param terminalId - the terminal (a safe terminal id).
 * @param name - the event's name.
 * @param payload - its payload, snake_case.
 * @param timestamp - when, ISO 8601 (`formatTimestamp(clock.now())`).
 * @returns the event, `{ terminal_id, event, payload, timestamp }`.
 * @throws {DecisionEventError} when anything is invalid, naming each problem's key path. It is
 * a programming error, not a logging failure.
 * @example
 * ```ts
 * logger.log(
 *   createDecisionEvent(terminalId, "iteration_start",
 *     { iteration: 1, current_task_id: "TASK-001", total_tasks: 5 },
 *     formatTimestamp(clock.now())),
 * );
 * ```
 */
export function createDecisionEvent<Name extends DecisionEventName>(
  terminalId: string,
  name: Name,
  payload: DecisionEventPayloads[Name],
  timestamp: string,
): DecisionEventOf<Name> {
  const input = { terminal_id: terminalId, event: name, payload, timestamp };
  const result = DecisionEventSchema.safeParse(input);
  if (!result.success) {
    throw new DecisionEventError({
      event: String(name),
      issues: schemaDiagnostics(result.error.issues, input),
    });
  }
  return result.data as DecisionEventOf<Name>;
}
