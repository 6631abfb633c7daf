/**
 * An emphasis or strong span found by {@link resolveEmphasis}: offsets of its outer edges.
 * Groups are reused from one call to the next: read them before pairing another text.
 */
export interface EmphasisGroup {
  /** `emphasis` for one marker on each side, `strong` for two. */
  type: "emphasis" | "strong";
  /** Offset of its opening marker's first character. */
  start: number;
  /** Offset just after its closing marker. */
  end: number;
}

/** The groups of the text paired last, reused (pairing allocates nothing once warm). */
const groupPool: EmphasisGroup[] = [];

/** A run of `*` or `_` in inline text, as micromark's attention tokenizer sees it. */
export interface DelimiterRun {
  /** The marker character's code (`*` or `_`). */
  marker: number;
  /** Whether it may open emphasis (left-flanking, and the `_` rules). */
  canOpen: boolean;
  /** Whether it may close emphasis (right-flanking, and the `_` rules). */
  canClose: boolean;
  /** Offset of its first unused marker. */
  start: number;
  /** Offset just after its last unused marker. */
  end: number;
  /** The groups it closes, innermost first (the first `closeCount`): they used its first markers. */
  readonly closes: EmphasisGroup[];
  /** How many of `closes` are this text's. */
  closeCount: number;
  /** The groups it opens, innermost first (the first `openCount`): they used its last markers. */
  readonly opens: EmphasisGroup[];
  /** How many of `opens` are this text's. */
  openCount: number;
  /** Whether it lies between the markers of a later group: its unused markers are then text. */
  inside: boolean;
}

/**
 * Pairs the delimiter runs of one inline text into emphasis and strong spans exactly as
 * micromark's `resolveAllAttention` does: each run that can close, left to right, is matched
 * with the nearest earlier run of the same marker that can open, skipping a pair when one of
 * them can both open and close and their lengths add up to a multiple of 3 (unless the closing
 * length is one), using two markers when both runs have two or more, and again while the
 * closing run has markers left. Runs between a matched pair are inside it and open or close
 * nothing more.
 *
 * Time grows with the square of the number of runs; callers bound it.
 *
 * @param runs - the runs in document order; updated in place.
 * @param count - how many of `runs` there are.
 */
export function resolveEmphasis(runs: readonly DelimiterRun[], count: number): void {
  let groups = 0;
  for (let closerIndex = 0; closerIndex < count; closerIndex += 1) {
    const closer = runs[closerIndex];
    if (closer === undefined || !closer.canClose) continue;
    while (closer.end > closer.start) {
      const openerIndex = findOpener(runs, closerIndex, closer);
      const opener = runs[openerIndex];
      if (opener === undefined) break;
      const use = opener.end - opener.start > 1 && closer.end - closer.start > 1 ? 2 : 1;
      const group = groupPool[groups] ?? { type: "emphasis", start: 0, end: 0 };
      groupPool[groups] = group;
      groups += 1;
      group.type = use > 1 ? "strong" : "emphasis";
      group.start = opener.end - use;
      group.end = closer.start + use;
      opener.end -= use;
      closer.start += use;
      opener.opens[opener.openCount] = group;
      opener.openCount += 1;
      closer.closes[closer.closeCount] = group;
      closer.closeCount += 1;
      for (let index = openerIndex + 1; index < closerIndex; index += 1) {
        const between = runs[index];
        if (between !== undefined) between.inside = true;
      }
    }
  }
}

/** The index of the run that opens for `closer`, or -1. */
function findOpener(runs: readonly DelimiterRun[], closerIndex: number, closer: DelimiterRun) {
  const closeLength = closer.end - closer.start;
  for (let index = closerIndex - 1; index >= 0; index -= 1) {
    const opener = runs[index];
    if (opener === undefined || opener.inside || !opener.canOpen) continue;
    if (opener.marker !== closer.marker || opener.end === opener.start) continue;
    const openLength = opener.end - opener.start;
    const ruleOfThree =
      (opener.canClose || closer.canOpen) &&
      closeLength % 3 !== 0 &&
      (openLength + closeLength) % 3 === 0;
    if (!ruleOfThree) return index;
  }
  return -1;
}
