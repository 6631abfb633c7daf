import type { Blockquote, Code, Paragraph, Text } from "mdast";
import { summarizeInline } from "./fast-inline.js";
import type { FenceOpener } from "./fence-lines.js";
import type { InlineSegment } from "./inline-pieces.js";
import { lazyParagraph } from "./lazy-paragraph.js";
import { type LineTable, type Point, pointAt } from "./line-table.js";

/** An open paragraph: its lines so far (the first kept as numbers: most paragraphs have one). */
export interface ParagraphLeaf {
  readonly kind: "paragraph";
  /** Offset where the paragraph starts (its checkbox, in a task item). */
  start: number;
  startLine: number;
  /** Where the first line's inline content starts (after the checkbox's `]`, in a task item). */
  firstStart: number;
  /** Where the first line's content ends. */
  firstEnd: number;
  /** The lines after the first, or `null`. */
  more: InlineSegment[] | null;
  /** Whether it starts with a task item's checkbox (its inline text starts after the `]`). */
  task: boolean;
}

/** Closed paragraph leaves, to reuse (nothing keeps a leaf once its node is built). */
const spareParagraphs: ParagraphLeaf[] = [];

/**
 * An open paragraph of one line so far.
 *
 * @param start - offset where the paragraph starts (its checkbox, in a task item).
 * @param startLine - its line.
 * @param firstStart - where its inline content starts.
 * @param firstEnd - where the line's content ends.
 * @param task - whether it starts with a task item's checkbox.
 */
export function openParagraph(
  start: number,
  startLine: number,
  firstStart: number,
  firstEnd: number,
  task: boolean,
): ParagraphLeaf {
  const leaf = spareParagraphs.pop();
  if (leaf === undefined) {
    return { kind: "paragraph", start, startLine, firstStart, firstEnd, more: null, task };
  }
  leaf.start = start;
  leaf.startLine = startLine;
  leaf.firstStart = firstStart;
  leaf.firstEnd = firstEnd;
  leaf.more = null;
  leaf.task = task;
  return leaf;
}

/**
 * Gives back a closed paragraph leaf for {@link openParagraph} to reuse.
 *
 * @param leaf - the leaf, no longer open anywhere.
 */
export function recycleParagraph(leaf: ParagraphLeaf): void {
  if (spareParagraphs.length < 64) spareParagraphs.push(leaf);
}

/** The segment array of a one-line paragraph, reused (inline reading keeps none of it). */
const oneSegment = [{ start: 0, end: 0, line: 0 }];

/**
 * The lines of a paragraph as inline segments. For one line, the array is reused by the
 * next call: read it before calling again.
 *
 * @param leaf - the paragraph.
 */
function paragraphSegments(leaf: ParagraphLeaf): readonly InlineSegment[] {
  const first = { start: leaf.firstStart, end: leaf.firstEnd, line: leaf.startLine };
  if (leaf.more !== null) return [first, ...leaf.more];
  const segment = oneSegment[0] as { start: number; end: number; line: number };
  segment.start = leaf.firstStart;
  segment.end = leaf.firstEnd;
  segment.line = leaf.startLine;
  return oneSegment;
}

/**
 * The line and end offset of a paragraph's last line.
 *
 * @param leaf - the paragraph.
 */
export function paragraphEnd(leaf: ParagraphLeaf): { readonly line: number; readonly end: number } {
  return leaf.more?.at(-1) ?? { line: leaf.startLine, end: leaf.firstEnd };
}

/** An open fenced code block: its opener and content lines so far. */
export interface FenceLeaf {
  readonly kind: "fence";
  readonly opener: FenceOpener;
  readonly start: number;
  readonly startLine: number;
  /** Columns of indentation stripped from content lines: the container's, then the fence's. */
  readonly strip: number;
  /** The container's content column. */
  readonly contentIndent: number;
  /** Offset where each content line's value starts, by line, in order. */
  readonly lines: { readonly line: number; readonly start: number }[];
}

/**
 * An open block quote at the top level holding one paragraph: the only kind of block quote
 * the scanner reads.
 */
export interface QuoteLeaf {
  readonly kind: "quote";
  /** Offset of its first `>`. */
  readonly start: number;
  readonly startLine: number;
  lastLine: number;
  readonly segments: InlineSegment[];
}

/** A leaf block open in a container. */
export type Leaf = ParagraphLeaf | FenceLeaf | QuoteLeaf;

/**
 * The paragraph node of a closed paragraph, or `null` when its inline text holds what the
 * fast path leaves to micromark. Just text makes one text node, built now; anything more a
 * lazy paragraph (see `lazyParagraph`).
 *
 * @param lines - the text's lines.
 * @param leaf - the paragraph.
 * @param end - the point at the end of its last line's content.
 */
export function paragraphNode(lines: LineTable, leaf: ParagraphLeaf, end: Point): Paragraph | null {
  const { task } = leaf;
  const segments = paragraphSegments(leaf);
  const summary = summarizeInline(lines, segments, task ? 93 : null, task);
  if (summary === null) return null;
  // What mdast-util-gfm-task-list-item does: the space after the checkbox is dropped from
  // the first text node, and the paragraph starts where that text then starts (or at the
  // checkbox when nothing is left of it).
  const shifted = task && summary.headLength > 0;
  const startOffset = shifted ? leaf.firstStart + 1 : leaf.start;
  const start = pointAt(lines, leaf.startLine, startOffset);
  const position = { start, end };
  if (summary.text !== null) {
    // The paragraph and its one text node span the same characters: one position serves both.
    const text: Text = { type: "text", value: summary.text, position };
    return { type: "paragraph", children: [text], position };
  }
  return lazyParagraph(position, summary.plain ?? "", lines, segments, task);
}

/**
 * The node of a closed top-level block quote of one paragraph, or `null` when its inline
 * text holds what the fast path leaves to micromark.
 *
 * @param lines - the text's lines.
 * @param leaf - the block quote.
 */
export function quoteNode(lines: LineTable, leaf: QuoteLeaf): Blockquote | null {
  const first = leaf.segments[0];
  const last = leaf.segments.at(-1);
  if (first === undefined || last === undefined) return null;
  const end = pointAt(lines, last.line, last.end);
  const more = leaf.segments.slice(1);
  const paragraph = paragraphNode(
    lines,
    {
      kind: "paragraph",
      start: first.start,
      startLine: first.line,
      firstStart: first.start,
      firstEnd: first.end,
      more: more.length > 0 ? more : null,
      task: false,
    },
    end,
  );
  if (paragraph === null) return null;
  const lineEnd = pointAt(lines, leaf.lastLine, lines.ends[leaf.lastLine] ?? 0);
  return {
    type: "blockquote",
    children: [paragraph],
    position: { start: pointAt(lines, leaf.startLine, leaf.start), end: lineEnd },
  };
}

/**
 * The node of a fenced code block closed on `closeLine`: its content lines joined by their
 * line endings.
 *
 * @param lines - the text's lines.
 * @param leaf - the fenced code block.
 * @param closeLine - the line of its closing fence.
 */
export function codeNode(lines: LineTable, leaf: FenceLeaf, closeLine: number): Code {
  const text = lines.text;
  let value = "";
  for (let index = 0; index < leaf.lines.length; index += 1) {
    const content = leaf.lines[index];
    if (content === undefined) continue;
    if (index > 0) {
      const previous = content.line - 1;
      value += text.slice(lines.ends[previous], lines.starts[content.line]);
    }
    value += text.slice(content.start, lines.ends[content.line]);
  }
  return {
    type: "code",
    lang: leaf.opener.lang,
    meta: leaf.opener.meta,
    value,
    position: {
      start: pointAt(lines, leaf.startLine, leaf.start),
      end: pointAt(lines, closeLine, lines.ends[closeLine] ?? 0),
    },
  };
}
