import type { ResetPart, ResetSnapshot } from "@loop/core";
import { formatCost } from "./format-cost.js";

/** A reset as `loop reset` and the `state_reset` event record it. */
export interface ResetSummaryInput {
  /** The parts reset. */
  readonly parts: readonly ResetPart[];
  /** The fields before the reset. */
  readonly before: ResetSnapshot;
  /** The fields after it. */
  readonly after: ResetSnapshot;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

type PartSummary = (before: ResetSnapshot, after: ResetSnapshot) => string;

const PART_SUMMARIES: Readonly<Record<ResetPart, PartSummary>> = {
  breaker: (before, after) =>
    before.circuit_breaker === after.circuit_breaker
      ? `circuit breaker already ${after.circuit_breaker}`
      : `circuit breaker ${before.circuit_breaker} → ${after.circuit_breaker}`,
  failed: (before) => {
    const failed = before.failed_tasks;
    const given =
      failed.length === 0
        ? "no given-up task"
        : `${plural(failed.length, "given-up task")} forgotten (${failed.join(", ")})`;
    const attempted = Object.keys(before.task_attempts).length;
    return attempted === 0 ? given : `${given}, attempts of ${plural(attempted, "task")} cleared`;
  },
  iterations: (before, after) => `iterations ${before.iterations} → ${after.iterations}`,
  session: (before) =>
    before.session_id === null
      ? "no agent session"
      : `agent session ${before.session_id} forgotten`,
  cost: (before, after) => `cost ${formatCost(before.cost_usd)} → ${formatCost(after.cost_usd)}`,
};

/**
 * What a reset did, before → after, one phrase per part: `circuit breaker OPEN → CLOSED; 2
 * given-up tasks forgotten (TASK-002, TASK-004); iterations 20 → 0`.
 *
 * @param reset - the parts reset and the fields before and after.
 * @returns the phrases joined by `; `.
 */
export function summarizeReset(reset: ResetSummaryInput): string {
  return reset.parts.map((part) => PART_SUMMARIES[part](reset.before, reset.after)).join("; ");
}
