import * as z from "zod";
import { isSafeTerminalId } from "../state/safe-terminal-id.js";
import { expected, timestampField } from "../state/state-fields.js";
import {
  type DecisionEventName,
  type DecisionEventPayloads,
  PAYLOAD_SCHEMAS,
} from "./decision-event-payloads.js";

/** Every event name, each listed once (the `Record` type makes the list complete). */
const eventNameSet: Record<DecisionEventName, true> = {
  iteration_start: true,
  iteration_end: true,
  loop_exit: true,
  error: true,
  rate_limit_wait: true,
  usage_limit_wait: true,
  task_failed: true,
  state_recovered: true,
  lock_takeover: true,
  verification: true,
  config_warning: true,
  state_reset: true,
  previous_agent_stopped: true,
  task_integrated: true,
  merge_conflict: true,
  workspaces_recovered: true,
  task_retried: true,
};

/**
 * Every decision event name: the seed's four (`iteration_start`, `iteration_end`, `loop_exit`,
 * `error`), then the engine's (`rate_limit_wait`, `usage_limit_wait`, `task_failed`,
 * `state_recovered`, `lock_takeover`, `verification`, `config_warning`, `state_reset`,
 * `previous_agent_stopped`) and those of parallel runs (`task_integrated`, `merge_conflict`,
 * `workspaces_recovered`, `task_retried`). Names are never renamed; new ones may be added.
 * docs/state-and-logs.md describes each.
 */
export const DECISION_EVENT_NAMES: readonly DecisionEventName[] = Object.freeze(
  Object.keys(eventNameSet) as DecisionEventName[],
);

/**
 * One decision event of the event named `Name`, exactly as a line of `decision.log` holds it:
 * `{"terminal_id": …, "event": …, "payload": {…}, "timestamp": …}`.
 */
export interface DecisionEventOf<Name extends DecisionEventName> {
  /** The terminal whose loop decided. */
  readonly terminal_id: string;
  /** The event's name. */
  readonly event: Name;
  /** What was decided, snake_case. */
  readonly payload: DecisionEventPayloads[Name];
  /** When, ISO 8601. */
  readonly timestamp: string;
}

/** Any decision event; narrow it on `event`. */
export type DecisionEvent = {
  [Name in DecisionEventName]: DecisionEventOf<Name>;
}[DecisionEventName];

const terminalIdMessage = expected("a safe terminal id (1 to 64 of A-Z a-z 0-9 . _ -)");

function eventSchema<Name extends DecisionEventName>(name: Name) {
  return z.object(
    {
      terminal_id: z.string(terminalIdMessage).refine(isSafeTerminalId, terminalIdMessage),
      event: z.literal(name),
      payload: PAYLOAD_SCHEMAS[name],
      timestamp: timestampField("When, ISO 8601."),
    },
    expected("a JSON object (a decision event)"),
  );
}

const eventSchemas = DECISION_EVENT_NAMES.map(eventSchema);

/**
 * Schema of a decision event: a union on `event`, each with its payload's schema. Payloads
 * keep fields beyond the documented ones; unknown top-level fields are dropped.
 */
export const DecisionEventSchema: z.ZodType<DecisionEvent> = z.discriminatedUnion(
  "event",
  eventSchemas as [(typeof eventSchemas)[number], ...(typeof eventSchemas)[number][]],
  expected("a JSON object (a decision event)"),
) as z.ZodType<DecisionEvent>;
