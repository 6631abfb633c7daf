import { describeValue } from "../config/describe-value.js";
import type { CallClaim, SharedLimitsUsage } from "./shared-limits.js";
import { SharedLimitsError } from "./shared-limits-error.js";

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isAmount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function isLimit(value: unknown): value is number | null {
  return value === null || isAmount(value);
}

/** A contract breach in the answer of `name`'s `method`. */
function breach(name: string, method: string, what: string, value: unknown): SharedLimitsError {
  return new SharedLimitsError({
    message: `The shared limits "${name}" answered ${method} with ${what} (got ${describeValue(value)}); see docs/shared-limits.md for what each method answers.`,
  });
}

/**
 * A {@link SharedLimitsUsage} as an implementation answered it, checked.
 *
 * @throws {SharedLimitsError} when it is not one: finite times, counts and amounts ≥ 0, limits
 *   a number or `null`.
 */
export function checkedUsage(value: unknown, name: string, method: string): SharedLimitsUsage {
  if (!isRecord(value)) throw breach(name, method, "no usage object", value);
  for (const key of ["windowStart", "resetAt", "callsThisHour", "costUsd"]) {
    if (!isAmount(value[key])) {
      throw breach(name, method, `a usage whose \`${key}\` is not a finite number ≥ 0`, value[key]);
    }
  }
  if (!Number.isInteger(value.callsThisHour)) {
    throw breach(
      name,
      method,
      "a usage whose `callsThisHour` is not an integer",
      value.callsThisHour,
    );
  }
  const calls = value.maxCallsPerHour;
  if (calls !== null && !(Number.isInteger(calls) && (calls as number) >= 1)) {
    throw breach(
      name,
      method,
      "a usage whose `maxCallsPerHour` is neither null nor an integer ≥ 1",
      calls,
    );
  }
  if (!isLimit(value.maxCostUsd)) {
    throw breach(
      name,
      method,
      "a usage whose `maxCostUsd` is neither null nor a number ≥ 0",
      value.maxCostUsd,
    );
  }
  return value as unknown as SharedLimitsUsage;
}

/**
 * A {@link CallClaim} as an implementation answered it, checked.
 *
 * @throws {SharedLimitsError} when it is not one.
 */
export function checkedClaim(value: unknown, name: string): CallClaim {
  const method = "claimCall";
  if (!isRecord(value) || typeof value.granted !== "boolean") {
    throw breach(name, method, "no claim (an object with `granted` true or false)", value);
  }
  const usage = checkedUsage(value.usage, name, method);
  if (value.granted) return { granted: true, usage };
  if (value.refusal === "budget") return { granted: false, refusal: "budget", usage };
  if (value.refusal !== "calls") {
    throw breach(name, method, 'a refusal that is neither "calls" nor "budget"', value.refusal);
  }
  if (usage.maxCallsPerHour === null) {
    throw breach(
      name,
      method,
      "a calls refusal with no hourly limit (`maxCallsPerHour` null)",
      null,
    );
  }
  if (typeof value.waitMs !== "number" || Number.isNaN(value.waitMs)) {
    throw breach(name, method, "a calls refusal without a `waitMs` number", value.waitMs);
  }
  return { granted: false, refusal: "calls", usage, waitMs: value.waitMs };
}
