import { distance } from "fastest-levenshtein";

/**
 * The existing id nearest to an unknown one, when it is close enough to be a likely typo:
 * compared case-insensitively by Levenshtein distance, at most 2 edits or 40% of the
 * unknown id's length, whichever is larger. Ties go to the earlier id.
 *
 * @param unknownId - the id that matched no task.
 * @param ids - the plan's task ids, in document order.
 * @returns the suggestion, or `undefined` when no id is close.
 */
export function nearestId(unknownId: string, ids: readonly string[]): string | undefined {
  const wanted = unknownId.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length * 0.4));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const id of ids) {
    const candidate = id.toLowerCase();
    if (Math.abs(candidate.length - wanted.length) > limit) continue;
    const score = distance(wanted, candidate);
    if (score < bestDistance) {
      best = id;
      bestDistance = score;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
