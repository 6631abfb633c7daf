import type { SharedUsageRecord } from "../observe/decision-event-payloads.js";
import { formatTimestamp } from "../state/iso-timestamp.js";
import type { SharedLimitsUsage } from "./shared-limits.js";

/** The fleet's counts as `loop_exit` records them (snake_case, the window start ISO 8601). */
export function toSharedUsageRecord(usage: SharedLimitsUsage): SharedUsageRecord {
  return {
    window_start: formatTimestamp(usage.windowStart),
    calls_made: usage.callsThisHour,
    max_calls_per_hour: usage.maxCallsPerHour,
    cost_usd: usage.costUsd,
    max_cost_usd: usage.maxCostUsd,
  };
}
