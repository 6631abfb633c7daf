import type { Emphasis, PhrasingContent, Strong, Text } from "mdast";
import type { EmphasisGroup } from "./emphasis.js";
import {
  CODE,
  codeSpanValue,
  DATA,
  EOL,
  type InlineSegment,
  pieces,
  readInlinePieces,
} from "./inline-pieces.js";
import { piecesPlainText, piecesText } from "./inline-plain-text.js";
import { type LineTable, pointAt } from "./line-table.js";

/**
 * What a paragraph's inline text holds, read without building its nodes. The object
 * {@link summarizeInline} returns is reused by its next call: read it before calling again.
 */
export interface InlineSummary {
  /**
   * Its plain text, as `plainText` gives it for the paragraph, when it is more than text
   * (`text` is `null`); `null` when it is just text (nothing needs it then).
   */
  readonly plain: string | null;
  /**
   * The length of the text node it starts with, less a dropped first character (0 when none
   * is left).
   */
  readonly headLength: number;
  /** The value of its one text node, when it is just text (no code, no emphasis); else `null`. */
  readonly text: string | null;
}

/**
 * Reads the inline content of a paragraph or heading into mdast phrasing nodes, exactly as
 * mdast-util-from-markdown would, or returns `null` when it holds syntax the fast path leaves
 * to micromark (see {@link readInlinePieces}).
 *
 * @param lines - the text's lines.
 * @param segments - the content of each line, in order (at least one).
 * @param previous - the character before the first segment (`null` at the start of the text).
 * @returns the phrasing nodes, or `null`.
 */
export function parseInline(
  lines: LineTable,
  segments: readonly InlineSegment[],
  previous: number | null,
): PhrasingContent[] | null {
  return readInlinePieces(lines, segments, previous) ? buildNodes(lines) : null;
}

/**
 * Reads the inline content of a paragraph like {@link parseInline}, without building nodes:
 * its plain text and the length of its first text node.
 *
 * @param lines - the text's lines.
 * @param segments - the content of each line, in order (at least one).
 * @param previous - the character before the first segment (`null` at the start of the text).
 * @param dropFirst - whether the first character is left out of the plain text (a task's
 *   first text node loses it), and so counted out of the head's length.
 * @returns the summary, or `null` when {@link parseInline} would give `null`.
 */
export function summarizeInline(
  lines: LineTable,
  segments: readonly InlineSegment[],
  previous: number | null,
  dropFirst: boolean,
): InlineSummary | null {
  if (!readInlinePieces(lines, segments, previous)) return null;
  let headLength = 0;
  let inHead = true;
  let textOnly = true;
  for (let index = 0; index < pieces.count; index += 1) {
    const kind = pieces.kinds[index];
    if (kind === DATA || kind === EOL) {
      if (inHead) headLength += (pieces.ends[index] ?? 0) - (pieces.starts[index] ?? 0);
      continue;
    }
    if (kind === CODE) {
      inHead = false;
      textOnly = false;
      continue;
    }
    const run = pieces.runs[index];
    if (run === null || run === undefined) continue;
    if (run.closeCount > 0) inHead = false;
    if (inHead) headLength += run.end - run.start;
    if (run.openCount > 0) inHead = false;
    if (run.closeCount > 0 || run.openCount > 0) textOnly = false;
  }
  if (dropFirst && headLength > 0) headLength -= 1;
  summary.headLength = headLength;
  summary.text = textOnly ? piecesText(lines.text, segments, dropFirst) : null;
  summary.plain = textOnly ? null : piecesPlainText(lines.text, segments, dropFirst);
  return summary;
}

/** The summary {@link summarizeInline} returns, reused. */
const summary: { -readonly [Key in keyof InlineSummary]: InlineSummary[Key] } = {
  plain: null,
  headLength: 0,
  text: null,
};

/** Builds the phrasing nodes from the pieces, merging adjacent text as micromark does. */
function buildNodes(lines: LineTable): PhrasingContent[] | null {
  const root: PhrasingContent[] = [];
  const open: { readonly group: EmphasisGroup; readonly node: Emphasis | Strong }[] = [];
  let children = root;
  for (let index = 0; index < pieces.count; index += 1) {
    const kind = pieces.kinds[index];
    const start = pieces.starts[index] ?? 0;
    const end = pieces.ends[index] ?? 0;
    const line = pieces.lines[index] ?? 0;
    if (kind === DATA || kind === EOL) {
      appendText(lines, children, line, start, end, kind === EOL);
      continue;
    }
    if (kind === CODE) {
      children.push({
        type: "inlineCode",
        value: codeSpanValue(lines.text, index),
        position: { start: pointAt(lines, line, start), end: pointAt(lines, line, end) },
      });
      continue;
    }
    const run = pieces.runs[index];
    if (run === null || run === undefined) return null;
    for (let closed = 0; closed < run.closeCount; closed += 1) {
      const group = run.closes[closed];
      const top = open.pop();
      if (group === undefined || top === undefined || top.group !== group) return null;
      if (top.node.position === undefined) return null;
      top.node.position.end = pointAt(lines, line, group.end);
      children = open.at(-1)?.node.children ?? root;
    }
    if (run.end > run.start) appendText(lines, children, line, run.start, run.end, false);
    for (let opened = run.openCount - 1; opened >= 0; opened -= 1) {
      const group = run.opens[opened];
      if (group === undefined) continue;
      const point = pointAt(lines, line, group.start);
      const node: Emphasis | Strong = {
        type: group.type,
        children: [],
        position: { start: point, end: point },
      };
      children.push(node);
      open.push({ group, node });
      children = node.children;
    }
  }
  return open.length === 0 ? root : null;
}

/** Adds characters to the text node the children end with, or to a new one. */
function appendText(
  lines: LineTable,
  children: PhrasingContent[],
  line: number,
  start: number,
  end: number,
  lineEnding: boolean,
): void {
  const value = lines.text.slice(start, end);
  const endPoint = pointAt(lines, lineEnding ? line + 1 : line, end);
  const tail = children.at(-1);
  if (tail?.type === "text" && tail.position !== undefined) {
    tail.value += value;
    tail.position.end = endPoint;
    return;
  }
  const node: Text = {
    type: "text",
    value,
    position: { start: pointAt(lines, line, start), end: endPoint },
  };
  children.push(node);
}
