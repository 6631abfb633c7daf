import { stripListMarker } from "./markup.js";
import { splitLines, type TextLine } from "./text-lines.js";
import type { TextRange } from "./text-mask.js";

/** Markup, spaces and heading marks allowed around a marker. */
const AROUND = String.raw`[\s*_\x60~#]*`;

/** `---RALPH_STATUS---`, tolerant of case, spacing, an escaped underscore and markup. */
const START_MARKER = new RegExp(
  String.raw`^${AROUND}-{2,}${AROUND}RALPH(?:\\?_|\s*)STATUS${AROUND}-{2,}${AROUND}$`,
  "i",
);

/** `---END_RALPH_STATUS---`, with the same tolerance. */
const END_MARKER = new RegExp(
  String.raw`^${AROUND}-{2,}${AROUND}END(?:\\?_|\s*)RALPH(?:\\?_|\s*)STATUS${AROUND}-{2,}${AROUND}$`,
  "i",
);

/** Where one status block lies in a text. */
export interface StatusBlockLocation extends TextRange {
  /** The opening marker's line. */
  readonly startLine: TextLine;
  /**
   * The closing marker's line; `null` for an unclosed block, which runs to the next opening
   * marker or to the end of the text.
   */
  readonly endLine: TextLine | null;
  /** The lines between the markers. */
  readonly lines: readonly TextLine[];
}

/** Whether a line is a status block's opening marker. */
function isStartMarker(line: string): boolean {
  return START_MARKER.test(stripListMarker(line));
}

/** Whether a line is a status block's closing marker. */
function isEndMarker(line: string): boolean {
  return END_MARKER.test(stripListMarker(line));
}

/**
 * Finds every status block of a text, in order. A block runs from an opening marker line to
 * the next closing marker line. An opening marker inside an open block starts a new block, and
 * the first is returned unclosed (`endLine: null`) up to that marker; a block still open at the
 * end of the text is returned unclosed up to the end; a closing marker with no open block is
 * ignored.
 *
 * @param text - an agent's answer.
 * @returns the blocks found, closed and unclosed, in text order.
 */
export function locateStatusBlocks(text: string): StatusBlockLocation[] {
  const blocks: StatusBlockLocation[] = [];
  let open: { startLine: TextLine; lines: TextLine[] } | null = null;
  for (const line of splitLines(text)) {
    if (isStartMarker(line.text)) {
      if (open !== null) {
        blocks.push({ ...open, endLine: null, start: open.startLine.start, end: line.start });
      }
      open = { startLine: line, lines: [] };
    } else if (open !== null && isEndMarker(line.text)) {
      blocks.push({ ...open, endLine: line, start: open.startLine.start, end: line.end });
      open = null;
    } else if (open !== null) {
      open.lines.push(line);
    }
  }
  if (open !== null) {
    blocks.push({ ...open, endLine: null, start: open.startLine.start, end: text.length });
  }
  return blocks;
}
