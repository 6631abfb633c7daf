import { distance } from "fastest-levenshtein";

/**
 * The candidate `given` is most likely a misspelling of, for "did you mean" hints: the nearest
 * by edit distance when it is close (at most 2 edits, or 40% of the longer word), or the only
 * candidate `given` is the start of (`stat` → `status`). `null` when none is close: a hint
 * naming an unrelated word only misleads.
 *
 * @param given - what the user typed.
 * @param candidates - the valid words.
 */
export function closeMatch(given: string, candidates: readonly string[]): string | null {
  const starting = candidates.filter((candidate) => given !== "" && candidate.startsWith(given));
  if (starting.length === 1) return starting[0] ?? null;
  let best: { candidate: string; edits: number } | null = null;
  for (const candidate of candidates) {
    const edits = distance(given.toLowerCase(), candidate.toLowerCase());
    if (best === null || edits < best.edits) best = { candidate, edits };
  }
  if (best === null) return null;
  const allowed = Math.max(2, Math.floor(Math.max(given.length, best.candidate.length) * 0.4));
  return best.edits <= allowed ? best.candidate : null;
}
