import { deepFreeze } from "./deep-freeze.js";
import { parsePlan } from "./parse-plan.js";
import type { ParsedPlan, ParsePlanOptions } from "./parsed-plan.js";

/** Options of {@link createPlanCache}. */
export interface PlanCacheOptions {
  /** How many distinct plans to keep; the least recently used is dropped first. Default 16. */
  readonly maxEntries?: number | undefined;
}

/** A bounded cache of parsed plans, made by {@link createPlanCache}. */
export interface PlanCache {
  /**
   * Parses `markdown` like {@link parsePlan}, or returns the result of an earlier call with
   * the same text and optional headings. The result is deeply frozen, and the same object
   * is returned for as long as the entry stays cached. Errors are not cached.
   *
   * @param markdown - the plan text.
   * @param options - as for {@link parsePlan}.
   * @returns the parsed plan, deeply frozen.
   * @throws {PlanParseError} as {@link parsePlan} does.
   */
  parse(markdown: string, options?: ParsePlanOptions | null): ParsedPlan;
  /** Drops every cached plan. */
  clear(): void;
  /** How many plans are cached. */
  readonly size: number;
}

const defaultMaxEntries = 16;

/**
 * Creates a cache that parses an unchanged plan only once: results are keyed by the
 * plan's text and the optional headings (the file name only appears in error messages,
 * and errors are not cached). The cache keeps at most `maxEntries` plans and drops the
 * least recently used one first.
 *
 * Cached results are deeply frozen (the plan object, its arrays, every task, requirement
 * and the status with its fields) because they are shared by every caller: mutating one
 * throws a `TypeError` in strict-mode code instead of corrupting what the next caller
 * sees. Copy what you need to change. {@link parsePlan} itself returns fresh, mutable
 * objects.
 *
 * @param options - the cache's size bound.
 * @returns an empty cache.
 * @throws {RangeError} when `maxEntries` is not a positive whole number.
 *
 * @example
 * ```ts
 * const cache = createPlanCache({ maxEntries: 4 });
 * const first = cache.parse(text);
 * const again = cache.parse(text); // not parsed again
 * first === again; // true
 * ```
 */
export function createPlanCache(options?: PlanCacheOptions | null): PlanCache {
  const maxEntries = options?.maxEntries ?? defaultMaxEntries;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(
      `createPlanCache: maxEntries must be a whole number, 1 or more, got ${String(maxEntries)}`,
    );
  }
  const entries = new Map<string, ParsedPlan>();
  return {
    parse(markdown, parseOptions) {
      const key = `${headingsKey(parseOptions?.optionalHeadings)}\u0000${markdown}`;
      const cached = entries.get(key);
      if (cached !== undefined) {
        entries.delete(key);
        entries.set(key, cached);
        return cached;
      }
      const plan = deepFreeze(parsePlan(markdown, parseOptions));
      entries.set(key, plan);
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
      return plan;
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

function headingsKey(optionalHeadings: readonly string[] | undefined): string {
  return optionalHeadings === undefined ? "default" : JSON.stringify(optionalHeadings);
}
