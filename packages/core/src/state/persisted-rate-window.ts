import type { z } from "zod";
import type { RateWindow } from "../policy/rate-limiter.js";
import { formatTimestamp, parseTimestamp } from "./iso-timestamp.js";
import { countField, sectionField, timestampField } from "./state-fields.js";

/**
 * `loop_state.json`'s `rate_window`: the policy's {@link RateWindow} in snake_case, with
 * `window_start` as an ISO 8601 timestamp. Kept so the hourly call limit holds across restarts
 * (ralph_loop.sh's `.call_count` and `.last_reset`).
 */
export const PersistedRateWindowSchema = sectionField(
  {
    window_start: timestampField("Start of the hour the calls were counted in."),
    calls_made: countField("Agent calls made in that hour."),
  },
  "The calls made in the current rate-limit window.",
);

/** `loop_state.json`'s `rate_window`, as persisted (snake_case). */
export type PersistedRateWindow = z.output<typeof PersistedRateWindowSchema>;

/**
 * Reads the persisted `rate_window` as the policy's {@link RateWindow}.
 *
 * @param persisted - `state.rate_window`, possibly absent or `null` (no call made yet).
 * @returns the window, camelCase, `windowStart` in epoch milliseconds; `null` when absent.
 */
export function toRateWindow(persisted: PersistedRateWindow | null | undefined): RateWindow | null {
  if (persisted === null || persisted === undefined) return null;
  return { windowStart: parseTimestamp(persisted.window_start), callsMade: persisted.calls_made };
}

/**
 * Writes the policy's {@link RateWindow} as `loop_state.json`'s `rate_window`.
 *
 * @param window - the window, as `recordCall` returns it, or `null` before the first call.
 * @returns the persisted form, `window_start` as an ISO 8601 UTC timestamp; `null` for `null`.
 */
export function fromRateWindow(window: RateWindow | null): PersistedRateWindow | null {
  if (window === null) return null;
  return { window_start: formatTimestamp(window.windowStart), calls_made: window.callsMade };
}
