import type { TextRange } from "./text-mask.js";

/**
 * The inline code spans of a piece of text, as CommonMark pairs backticks: a run of `n`
 * backticks opens a span that the next run of exactly `n` backticks closes, and a run that
 * nothing closes is literal. Backslash escapes are not read. Linear in the length of the
 * piece: each run is paired through a table of the next run of the same length, never by
 * searching.
 *
 * @param text - the text.
 * @param start - offset where the piece starts.
 * @param end - offset just after the piece.
 * @returns the spans, backticks included, in order.
 */
export function findCodeSpans(text: string, start = 0, end = text.length): TextRange[] {
  const runs: TextRange[] = [];
  for (let index = start; index < end; index += 1) {
    if (text.charCodeAt(index) !== 96) continue;
    let runEnd = index + 1;
    while (runEnd < end && text.charCodeAt(runEnd) === 96) runEnd += 1;
    runs.push({ start: index, end: runEnd });
    index = runEnd;
  }
  const nextOfSameLength = new Array<number>(runs.length).fill(-1);
  const laterRun = new Map<number, number>();
  for (let index = runs.length - 1; index >= 0; index -= 1) {
    const run = runs[index];
    if (run === undefined) continue;
    const length = run.end - run.start;
    nextOfSameLength[index] = laterRun.get(length) ?? -1;
    laterRun.set(length, index);
  }
  const spans: TextRange[] = [];
  for (let index = 0; index < runs.length; index += 1) {
    const closing = nextOfSameLength[index] ?? -1;
    const opening = runs[index];
    const closingRun = runs[closing];
    if (opening === undefined || closingRun === undefined) continue;
    spans.push({ start: opening.start, end: closingRun.end });
    index = closing;
  }
  return spans;
}
