import type { TextSplice } from "./text-splice.js";

/** More changed runs than this in two texts of one length are not worth deriving from. */
const MAX_RUNS = 64;

/** How many code units are compared at once while the texts are equal. */
const BLOCK = 256;

/**
 * The splices that turn `before` into `after`, found cheaply, or `null` when there are too
 * many to be worth it: for texts of one length, one splice per run of changed characters
 * (checking boxes changes one character each); otherwise one splice from the first changed
 * character to the last.
 *
 * @param before - the earlier text.
 * @param after - the later text.
 * @returns splices on `before`, in order (none when the texts are equal), or `null`.
 */
export function textChanges(before: string, after: string): TextSplice[] | null {
  if (before.length !== after.length) return [oneChange(before, after)];
  const splices: TextSplice[] = [];
  let index = 0;
  while (index < before.length) {
    // Equal blocks are skipped whole: comparing two slices is a memory comparison, many times
    // faster than comparing code units one by one.
    const blockEnd = Math.min(index + BLOCK, before.length);
    if (before.slice(index, blockEnd) === after.slice(index, blockEnd)) {
      index = blockEnd;
      continue;
    }
    if (before.charCodeAt(index) === after.charCodeAt(index)) {
      index += 1;
      continue;
    }
    const start = index;
    while (index < before.length && before.charCodeAt(index) !== after.charCodeAt(index)) {
      index += 1;
    }
    if (splices.length === MAX_RUNS) return null;
    splices.push({ start, end: index, insert: after.slice(start, index) });
  }
  return splices;
}

/** One splice covering every change: the texts' common start and end are kept. */
function oneChange(before: string, after: string): TextSplice {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start += 1;
  let common = 0;
  while (
    common < shorter - start &&
    before.charCodeAt(before.length - 1 - common) === after.charCodeAt(after.length - 1 - common)
  ) {
    common += 1;
  }
  return { start, end: before.length - common, insert: after.slice(start, after.length - common) };
}
