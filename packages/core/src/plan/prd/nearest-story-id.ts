import { closest } from "fastest-levenshtein";

/**
 * The candidate nearest to `id` by edit distance (ties go to the earlier candidate), or
 * `null` when there are no candidates.
 */
export function nearestStoryId(id: string, candidates: readonly string[]): string | null {
  if (candidates.length === 0) return null;
  return closest(id, [...candidates]);
}
