import type { z } from "zod";
import type { UsageLimit } from "../loop/executor.js";
import { formatTimestamp } from "./iso-timestamp.js";
import { booleanField, nullableTimestampField, sectionField, textField } from "./state-fields.js";

/**
 * The usage limit that stopped a loop with `usage_limit`, in snake_case: kept in
 * `loop_state.json`'s `run` and in the `loop_exit` event, so `loop status` can say when it
 * lifts and whether waiting lifts it at all.
 */
export const UsageLimitRecordSchema = sectionField(
  {
    reset_at: nullableTimestampField("When the limit lifts; null when the agent did not say."),
    waitable: booleanField("Whether waiting lifts it (false: a spend cap, a blocked account)."),
    message: textField("The agent's words about the limit."),
  },
  "The agent's usage limit that stopped the loop.",
);

/** `loop_state.json`'s `run.usage_limit` and `loop_exit`'s `usage_limit`. */
export type UsageLimitRecord = z.output<typeof UsageLimitRecordSchema>;

/**
 * Writes an executor's {@link UsageLimit} as a {@link UsageLimitRecord}.
 *
 * @param limit - the limit, as the executor reported it.
 * @returns the persisted form, `reset_at` as an ISO 8601 UTC timestamp or `null`.
 */
export function toUsageLimitRecord(limit: UsageLimit): UsageLimitRecord {
  return {
    reset_at: limit.resetAt === null ? null : formatTimestamp(limit.resetAt),
    waitable: limit.waitable,
    message: limit.message,
  };
}
