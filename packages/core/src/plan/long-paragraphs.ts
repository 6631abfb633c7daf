import type { Nodes, Root } from "mdast";
import { isBlankLine } from "./blank-line.js";
import { type LineTable, lineTable } from "./line-table.js";

/**
 * The longest paragraph whose inline syntax (emphasis, links) is parsed, in UTF-16 code units.
 * micromark resolves emphasis and links in time that grows with the square of a paragraph's
 * length (`a*a*a*…`, `[a]([a](…`), so in a longer paragraph they are read as plain text.
 */
export const MAX_INLINE_PARSED_LENGTH = 4000;

/** A range of a text: `start` included, `end` excluded. */
interface Range {
  readonly start: number;
  readonly end: number;
}

/** What {@link neutralizeLongParagraphs} made of a text. */
export interface NeutralizedText {
  /** The text the parser reads: as long as the input, line breaks at the same offsets. */
  readonly text: string;
  /** The paragraphs whose emphasis and link characters were replaced, in order. */
  readonly ranges: readonly Range[];
}

/** A line that starts a block, after its indentation and `>` markers: it ends a paragraph. */
const blockStart =
  /^(?:[-*+](?:[ \t]|$)|[0-9]{1,9}[.)](?:[ \t]|$)|#{1,6}(?:[ \t]|$)|`{3,}|~{3,}|<|(?:[*_-][ \t]*){3,}$|=+[ \t]*$|-+[ \t]*$)/u;

/** Container markers, a task checkbox and a definition label at the start of a line. */
const linePrefix =
  /^(?:[ \t]*(?:>|[-*+](?=[ \t]|$)|[0-9]{1,9}[.)](?=[ \t]|$)))*[ \t]*(?:\[[ xX]\](?=[ \t]|$)|\[[^\]]{0,999}\]:)?/u;

/** The characters replaced: `*`, `_`, `[`, `]`. */
const inlineOnly = /[*_[\]]/gu;

/**
 * Finds the paragraphs of a text longer than {@link MAX_INLINE_PARSED_LENGTH} (runs of
 * non-blank lines that start no other block) and replaces their `*`, `_`, `[` and `]` with
 * letters, after each line's container markers, checkbox or definition label, so that
 * parsing them takes linear time. The caller restores the text of the tree's text nodes from
 * the input (see {@link restoreNeutralizedText}).
 *
 * @param body - the markdown text.
 * @param lines - its lines, when the caller has them.
 * @returns the text to parse and the ranges changed (none for an ordinary plan).
 */
export function neutralizeLongParagraphs(
  body: string,
  lines: LineTable = lineTable(body),
): NeutralizedText {
  return hasLongRun(body, lines) ? neutralizeRuns(body) : { text: body, ranges: [] };
}

/**
 * What {@link neutralizeLongParagraphs} does, without first checking, cheaply, that the text
 * has a long paragraph at all (for tests of that check).
 *
 * @param body - the markdown text.
 * @returns the text to parse and the ranges changed.
 */
export function neutralizeRuns(body: string): NeutralizedText {
  const lines: Range[] = [];
  const lineBreak = /\r\n|\n|\r/gu;
  let start = 0;
  for (let match = lineBreak.exec(body); match !== null; match = lineBreak.exec(body)) {
    lines.push({ start, end: match.index });
    start = match.index + match[0].length;
  }
  lines.push({ start, end: body.length });

  const ranges: Range[] = [];
  let run: Range[] = [];
  let runLength = 0;
  const endRun = () => {
    if (runLength > MAX_INLINE_PARSED_LENGTH) ranges.push(...run);
    run = [];
    runLength = 0;
  };
  for (const line of lines) {
    const text = body.slice(line.start, line.end);
    if (isBlankLine(text)) {
      endRun();
      continue;
    }
    if (blockStart.test(text.replace(/^[ \t>]*/u, ""))) endRun();
    run.push(line);
    runLength += line.end - line.start;
  }
  endRun();
  if (ranges.length === 0) return { text: body, ranges };

  let text = "";
  let cursor = 0;
  for (const line of ranges) {
    const content = body.slice(line.start, line.end);
    const prefix = linePrefix.exec(content)?.[0].length ?? 0;
    text +=
      body.slice(cursor, line.start + prefix) + content.slice(prefix).replace(inlineOnly, "a");
    cursor = line.end;
  }
  return { text: text + body.slice(cursor), ranges };
}

/** Whether an offset lies in one of the sorted ranges. */
function inRanges(ranges: readonly Range[], offset: number): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = ranges[middle];
    if (range === undefined) return false;
    if (offset < range.start) high = middle - 1;
    else if (offset > range.end) low = middle + 1;
    else return true;
  }
  return false;
}

/**
 * Gives the text and inline code nodes of neutralised paragraphs their characters from the
 * input again, so that titles keep their `*`, `_`, `[` and `]` (as written: emphasis and
 * links of such a paragraph are not read).
 *
 * @param root - the tree parsed from the neutralised text.
 * @param body - the input.
 * @param parsed - the neutralised text.
 * @param ranges - the lines that were changed.
 */
export function restoreNeutralizedText(
  root: Root,
  body: string,
  parsed: string,
  ranges: readonly Range[],
): void {
  if (ranges.length === 0) return;
  const pending: Nodes[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if ("children" in node) pending.push(...node.children);
    if (node.type !== "text" && node.type !== "inlineCode") continue;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined || !inRanges(ranges, start)) continue;
    node.value = restored(node.value, parsed, body, start, end) ?? node.value;
  }
}

/**
 * A node's value with each character taken from the input where the parsed text has it: the
 * value is read along its source (which may hold more: indentation, backslashes, backticks).
 * `null` when the value is not found in order in its source (a decoded character reference).
 */
function restored(
  value: string,
  parsed: string,
  body: string,
  start: number,
  end: number,
): string | null {
  let result = "";
  let offset = start;
  for (let index = 0; index < value.length; index += 1) {
    while (offset < end && parsed.charCodeAt(offset) !== value.charCodeAt(index)) offset += 1;
    if (offset >= end) return null;
    result += body.charAt(offset);
    offset += 1;
  }
  return result;
}

/**
 * Whether a text has a run of lines longer than {@link MAX_INLINE_PARSED_LENGTH}, as
 * {@link neutralizeLongParagraphs} cuts them (at blank lines and at lines that start a block,
 * see `blockStart`), read without slicing the text: most texts have none, and are left as
 * they are.
 */
function hasLongRun(body: string, lines: LineTable): boolean {
  let runLength = 0;
  for (let line = 0; line < lines.count; line += 1) {
    const lineStart = lines.starts[line] ?? 0;
    const lineEnd = lines.ends[line] ?? 0;
    let first = lineStart;
    // Blank as isBlankLine reads it (spaces and tabs), as neutralizeLongParagraphs cuts.
    while (first < lineEnd && isSpaceOrTab(body.charCodeAt(first))) first += 1;
    if (first === lineEnd) {
      runLength = 0;
      continue;
    }
    if (startsBlock(body, lineStart, lineEnd)) runLength = 0;
    runLength += lineEnd - lineStart;
    if (runLength > MAX_INLINE_PARSED_LENGTH) return true;
  }
  return false;
}

/** `blockStart.test` on a line after its leading spaces, tabs and `>`, without slicing. */
function startsBlock(body: string, lineStart: number, end: number): boolean {
  let position = lineStart;
  while (position < end) {
    const code = body.charCodeAt(position);
    if (code !== 32 && code !== 9 && code !== 62) break;
    position += 1;
  }
  if (position === end) return false;
  const code = body.charCodeAt(position);
  const next = position + 1 < end ? body.charCodeAt(position + 1) : -1;
  if ((code === 45 || code === 42 || code === 43) && spaceOrEnd(body, position + 1, end))
    return true;
  if (code === 60) return true;
  if ((code === 96 || code === 126) && next === code && body.charCodeAt(position + 2) === code) {
    return position + 2 < end;
  }
  if (code >= 48 && code <= 57) {
    let digitsEnd = position;
    while (digitsEnd < end && isDigit(body.charCodeAt(digitsEnd))) digitsEnd += 1;
    const delimiter = body.charCodeAt(digitsEnd);
    return (
      digitsEnd - position <= 9 &&
      digitsEnd < end &&
      (delimiter === 46 || delimiter === 41) &&
      spaceOrEnd(body, digitsEnd + 1, end)
    );
  }
  if (code === 35) {
    let hashesEnd = position;
    while (hashesEnd < end && body.charCodeAt(hashesEnd) === 35) hashesEnd += 1;
    return hashesEnd - position <= 6 && spaceOrEnd(body, hashesEnd, end);
  }
  if (code === 61 || code === 45) {
    let markersEnd = position;
    while (markersEnd < end && body.charCodeAt(markersEnd) === code) markersEnd += 1;
    let rest = markersEnd;
    while (rest < end && isSpaceOrTab(body.charCodeAt(rest))) rest += 1;
    if (rest === end) return true;
  }
  if (code === 42 || code === 95 || code === 45) {
    let markers = 0;
    for (let index = position; index < end; index += 1) {
      const character = body.charCodeAt(index);
      if (character === 42 || character === 95 || character === 45) markers += 1;
      else if (!isSpaceOrTab(character)) return false;
    }
    return markers >= 3;
  }
  return false;
}

function spaceOrEnd(body: string, at: number, end: number): boolean {
  return at === end || isSpaceOrTab(body.charCodeAt(at));
}

function isSpaceOrTab(code: number): boolean {
  return code === 32 || code === 9;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
