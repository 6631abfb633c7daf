import { splitFieldLine } from "./field-line.js";
import { stripListMarker } from "./markup.js";
import { knownField } from "./status-fields.js";
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

/**
 * `RALPH_STATUS:` alone on its line, the YAML form's opening line: any case, spacing, an
 * escaped underscore and markup, but no heading marks (`## RALPH_STATUS:` titles a section).
 */
const YAML_START = /^[\s*_\x60~]*RALPH(?:\\?_|\s*)STATUS[\s*_\x60~]*:[\s*_\x60~]*$/i;

/** A line that opens or closes a code fence, which ends a YAML-form block. */
const FENCE = /^\s*(?:`{3,}|~{3,})/;

/** Where one status block lies in a text. */
export interface StatusBlockLocation extends TextRange {
  /** The opening marker's line (`---RALPH_STATUS---`, or `RALPH_STATUS:` for the YAML form). */
  readonly startLine: TextLine;
  /**
   * The closing marker's line, or the last field line of a YAML-form block; `null` for an
   * unclosed block, which runs to the next opening marker or to the end of the text.
   */
  readonly endLine: TextLine | null;
  /** The field lines: those between the markers, or those after `RALPH_STATUS:`. */
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

/** Whether a line is the YAML form's opening line, `RALPH_STATUS:`. */
function isYamlStart(line: string): boolean {
  return YAML_START.test(stripListMarker(line));
}

/** Whether a line ends the field lines of a YAML-form block (and is not one of them). */
function endsYamlBlock(line: string): boolean {
  return (
    line.trim() === "" ||
    FENCE.test(line) ||
    isStartMarker(line) ||
    isEndMarker(line) ||
    isYamlStart(line)
  );
}

/**
 * The YAML-form block opened at a line: the lines after `RALPH_STATUS:` up to a blank line, a
 * code fence, a marker line or the end of the text. It is a block only when one of them is a
 * field the status block knows (`STATUS: COMPLETE`, `exit_signal: true`, …).
 *
 * @returns the block and the index of the first line after it, or `null` when there is none.
 */
function yamlBlockAt(
  lines: readonly TextLine[],
  index: number,
): { readonly block: StatusBlockLocation; readonly next: number } | null {
  const startLine = lines[index];
  if (startLine === undefined || !isYamlStart(startLine.text)) return null;
  const fieldLines: TextLine[] = [];
  let known = false;
  let next = index + 1;
  for (
    let line = lines[next];
    line !== undefined && !endsYamlBlock(line.text);
    line = lines[next]
  ) {
    fieldLines.push(line);
    if (!known) {
      const key = splitFieldLine(line)?.key;
      known = key !== undefined && knownField(key) !== null;
    }
    next += 1;
  }
  const endLine = fieldLines[fieldLines.length - 1];
  if (!known || endLine === undefined) return null;
  const block = { startLine, endLine, lines: fieldLines, start: startLine.start, end: endLine.end };
  return { block, next };
}

/**
 * Finds every status block of a text, in order. A block runs from an opening marker line to
 * the next closing marker line. An opening marker inside an open block starts a new block, and
 * the first is returned unclosed (`endLine: null`) up to that marker; a block still open at the
 * end of the text is returned unclosed up to the end; a closing marker with no open block is
 * ignored.
 *
 * Outside a marker block, a line `RALPH_STATUS:` alone opens a block of the YAML form: its
 * field lines, indented or not, run up to a blank line, a code fence (so the form is read in a
 * ```` ```yaml ```` fence too), a marker line or the end of the text, and the block is closed at
 * its last field line. Without a field the status block knows among them, the line is no block.
 * Each line is read once: linear time.
 *
 * @param text - an agent's answer.
 * @returns the blocks found, closed and unclosed, in text order.
 */
export function locateStatusBlocks(text: string): StatusBlockLocation[] {
  const blocks: StatusBlockLocation[] = [];
  const lines = splitLines(text);
  let open: { startLine: TextLine; lines: TextLine[] } | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    if (line === undefined) break;
    const yaml = open === null ? yamlBlockAt(lines, index) : null;
    if (yaml !== null) {
      blocks.push(yaml.block);
      index = yaml.next - 1;
    } else if (isStartMarker(line.text)) {
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
