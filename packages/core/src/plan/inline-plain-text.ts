import { CODE, codeSpanValue, DATA, EOL, type InlineSegment, pieces } from "./inline-pieces.js";
import { collapseWhitespace } from "./plain-text.js";

/**
 * A character that may make a line's text differ from what `collapseWhitespace` gives: any
 * but printable ASCII and a space, or a space followed by another. A search from a line's
 * start stops at its line ending at the latest. Every match is one character long.
 */
const unusualSpacing = /[^!-~ ]| (?= )/gu;

/**
 * The plain text of the pieces last read by `readInlinePieces`, as `plainText` gives it for
 * their paragraph: text, code span values and unused markers joined, whitespace collapsed.
 *
 * The join is flat (one string, no chain of `+` to flatten on its first read). Whitespace is
 * collapsed by `collapseWhitespace` only when it may change something: a one-line text whose
 * line holds only printable ASCII and single spaces can differ only where its parts meet
 * (a code span's value may start or end with a space) or at its ends, which are checked
 * part by part; anything else takes the general path.
 *
 * @param text - the text the pieces were read from.
 * @param segments - the segments they were read from.
 * @param dropFirst - whether the first character is left out (a task's first text node
 *   loses it).
 * @returns the plain text.
 */
export function piecesPlainText(
  text: string,
  segments: readonly InlineSegment[],
  dropFirst: boolean,
): string {
  let count = 0;
  let afterSpace = true;
  let collapsed = segments.length === 1 && isPlainLine(text, segments[0]);
  for (let index = 0; index < pieces.count; index += 1) {
    const part = pieceText(text, index, dropFirst && index === 0);
    if (part === "") continue;
    partsBuffer[count] = part;
    count += 1;
    if (!collapsed) continue;
    if (afterSpace && part.charCodeAt(0) === 32) collapsed = false;
    afterSpace = part.charCodeAt(part.length - 1) === 32;
  }
  const raw = joinParts(count);
  return collapsed && (!afterSpace || raw === "") ? raw : collapseWhitespace(raw);
}

/** The parts of the text being joined (reused: joining is not re-entrant). */
const partsBuffer: string[] = [];

/** Arrays of each length up to this are kept to join that many parts (most texts have few). */
const MAX_KEPT_JOIN = 16;

/** Arrays of each length, reused to join that many parts without allocating an array. */
const joinBuffers: string[][] = [];

/** The first `count` parts of {@link partsBuffer} joined into one flat string. */
function joinParts(count: number): string {
  if (count <= 1) return count === 1 ? (partsBuffer[0] ?? "") : "";
  if (count > MAX_KEPT_JOIN) return partsBuffer.slice(0, count).join("");
  let buffer = joinBuffers[count];
  if (buffer === undefined) {
    buffer = new Array<string>(count).fill("");
    joinBuffers[count] = buffer;
  }
  for (let index = 0; index < count; index += 1) buffer[index] = partsBuffer[index] ?? "";
  return buffer.join("");
}

/**
 * The text of the pieces last read by `readInlinePieces` that are all text (line endings and
 * unused markers included): their characters joined, as the one text node they make holds.
 *
 * @param text - the text the pieces were read from.
 * @param segments - the segments they were read from.
 * @param dropFirst - whether the first character is left out.
 * @returns the text.
 */
export function piecesText(
  text: string,
  segments: readonly InlineSegment[],
  dropFirst: boolean,
): string {
  if (pieces.count === 0) return "";
  if (segments.length === 1) {
    // The pieces of one line lie end to end: one slice.
    const start = (pieces.starts[0] ?? 0) + (dropFirst ? 1 : 0);
    return text.slice(start, pieces.ends[pieces.count - 1] ?? 0);
  }
  let count = 0;
  for (let index = 0; index < pieces.count; index += 1) {
    partsBuffer[count] = pieceText(text, index, dropFirst && index === 0);
    count += 1;
  }
  return joinParts(count);
}

/** The characters piece `index` adds to the plain text (`""` for none). */
function pieceText(text: string, index: number, dropFirst: boolean): string {
  const kind = pieces.kinds[index];
  if (kind === DATA || kind === EOL) {
    const start = (pieces.starts[index] ?? 0) + (dropFirst ? 1 : 0);
    return text.slice(start, pieces.ends[index] ?? 0);
  }
  if (kind === CODE) return codeSpanValue(text, index);
  const run = pieces.runs[index];
  return run === null || run === undefined ? "" : text.slice(run.start, run.end);
}

/** Whether a line's text holds only printable ASCII and single spaces. */
function isPlainLine(text: string, segment: InlineSegment | undefined): boolean {
  if (segment === undefined) return false;
  unusualSpacing.lastIndex = segment.start;
  return !unusualSpacing.test(text) || unusualSpacing.lastIndex - 1 >= segment.end;
}
