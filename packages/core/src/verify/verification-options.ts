/** The default fuzzy-match threshold: the config's `verification.fuzzy_match_threshold`. */
export const DEFAULT_FUZZY_MATCH_THRESHOLD = 0.8;

/** The default largest number of completed tasks that may meet one requirement together. */
export const DEFAULT_MAX_COMBINED_TASKS = 2;

/** Throws a `RangeError` unless `threshold` is a number from 0 to 1. */
export function checkThreshold(threshold: number, caller: string): number {
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1)) {
    throw new RangeError(`${caller}: threshold must be a number from 0 to 1, got ${threshold}`);
  }
  return threshold;
}

/** Throws a `RangeError` unless `value` is an integer ≥ `minimum`. */
export function checkCount(value: number, name: string, minimum: number, caller: string): number {
  if (!Number.isInteger(value) || value < minimum) {
    throw new RangeError(`${caller}: ${name} must be an integer ≥ ${minimum}, got ${value}`);
  }
  return value;
}

/** The threshold and combination size of one matching call, checked and defaulted. */
export interface MatchSettings {
  /** The score a requirement must reach, in [0, 1]. */
  readonly threshold: number;
  /** The largest number of tasks that may meet one requirement together, ≥ 1. */
  readonly maxCombinedTasks: number;
}

/**
 * Checks the options of a matching call and fills in the defaults (threshold 0.8, two tasks).
 *
 * @throws {RangeError} when `threshold` is not in [0, 1] or `maxCombinedTasks` is not an
 * integer ≥ 1.
 */
export function resolveMatchOptions(
  options:
    | { readonly threshold?: number | undefined; readonly maxCombinedTasks?: number | undefined }
    | null
    | undefined,
  caller: string,
): MatchSettings {
  return {
    threshold: checkThreshold(options?.threshold ?? DEFAULT_FUZZY_MATCH_THRESHOLD, caller),
    maxCombinedTasks: checkCount(
      options?.maxCombinedTasks ?? DEFAULT_MAX_COMBINED_TASKS,
      "maxCombinedTasks",
      1,
      caller,
    ),
  };
}
