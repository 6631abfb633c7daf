import { isBlankLine } from "./blank-line.js";
import { type LineTable, lineTable } from "./line-table.js";

/**
 * The deepest nesting of block quotes and list items a plan may have. micromark's time
 * grows with the square of the nesting, and building and walking a tree nested thousands
 * deep overflows the call stack; no plan needs more than a few levels.
 */
export const MAX_NESTING_DEPTH = 100;

/** Where a text nests deeper than {@link MAX_NESTING_DEPTH}. */
export interface TooDeepNesting {
  /** 1-based line of the marker that opens one container too many. */
  readonly line: number;
  /** 1-based column of that marker. */
  readonly column: number;
}

/** A container open on the current line: a block quote, or a list item with its indent. */
type Container = { readonly kind: "quote" } | { readonly kind: "item"; readonly indent: number };

const listMarker = /(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|$)/y;
const thematicBreak = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/u;
const fenceStart = /^(`{3,}|~{3,})/u;
const blockStart =
  /^(?:>|[-*+](?:[ \t]|$)|[0-9]{1,9}[.)](?:[ \t]|$)|#{1,6}(?:[ \t]|$)|`{3,}|~{3,})/u;

/** A line read from a position on, with its visual column (tabs stop every 4 columns). */
class LineCursor {
  index = 0;
  column = 0;
  constructor(readonly text: string) {}

  /** Columns of spaces and tabs from the cursor, without moving it. */
  indentation(): number {
    let column = this.column;
    for (let index = this.index; index < this.text.length; index += 1) {
      const code = this.text.charCodeAt(index);
      if (code === 32) column += 1;
      else if (code === 9) column += 4 - (column % 4);
      else break;
    }
    return column - this.column;
  }

  /** Moves over spaces and tabs, at most `columns` columns. */
  skipSpaces(columns: number): void {
    const limit = this.column + columns;
    while (this.index < this.text.length && this.column < limit) {
      const code = this.text.charCodeAt(this.index);
      if (code === 32) this.column += 1;
      else if (code === 9) this.column += 4 - (this.column % 4);
      else break;
      this.index += 1;
    }
  }

  /** The rest of the line. */
  rest(): string {
    return this.text.slice(this.index);
  }
}

/** Whether the line continues an open container, moving past its marker or indentation. */
function continues(cursor: LineCursor, container: Container, blank: boolean): boolean {
  if (container.kind === "item") {
    if (blank) return true;
    if (cursor.indentation() < container.indent) return false;
    cursor.skipSpaces(container.indent);
    return true;
  }
  if (cursor.indentation() > 3) return false;
  const save = { index: cursor.index, column: cursor.column };
  cursor.skipSpaces(3);
  if (cursor.text.charAt(cursor.index) !== ">") {
    cursor.index = save.index;
    cursor.column = save.column;
    return false;
  }
  cursor.index += 1;
  cursor.column += 1;
  cursor.skipSpaces(1);
  return true;
}

/** Opens the block quote or list item at the cursor, if one starts there. */
function opens(cursor: LineCursor): Container | null {
  const indentation = cursor.indentation();
  if (indentation > 3) return null;
  const save = { index: cursor.index, column: cursor.column };
  cursor.skipSpaces(3);
  if (cursor.text.charAt(cursor.index) === ">") {
    cursor.index += 1;
    cursor.column += 1;
    cursor.skipSpaces(1);
    return { kind: "quote" };
  }
  listMarker.lastIndex = cursor.index;
  const marker = listMarker.exec(cursor.text);
  if (marker === null || thematicBreak.test(cursor.rest())) {
    cursor.index = save.index;
    cursor.column = save.column;
    return null;
  }
  cursor.index += marker[0].length;
  cursor.column += marker[0].length;
  const spaces = cursor.indentation();
  const after = spaces >= 1 && spaces <= 4 ? spaces : 1;
  cursor.skipSpaces(after);
  return { kind: "item", indent: indentation + marker[0].length + after };
}

/**
 * Finds where a markdown text nests block quotes and list items deeper than
 * {@link MAX_NESTING_DEPTH}, following its containers line by line as CommonMark does
 * (markers, indentation, blank lines, lazy paragraph lines, fenced code), closely enough to
 * tell a plan nested a few levels from one nested a hundred. Linear in the length of the
 * text.
 *
 * @param body - the markdown text, without byte order mark.
 * @param lines - its lines, when the caller has them.
 * @returns the first marker too deep, or `null` when the nesting is within the limit.
 */
export function findTooDeepNesting(
  body: string,
  lines: LineTable = lineTable(body),
): TooDeepNesting | null {
  return longestContainerPrefix(body, lines) <= MAX_NESTING_DEPTH ? null : followContainers(body);
}

/**
 * What {@link findTooDeepNesting} does, without first checking, cheaply, that some line
 * could nest that deep at all (for tests of that check).
 *
 * @param body - the markdown text, without byte order mark.
 * @returns the first marker too deep, or `null`.
 */
export function followContainers(body: string): TooDeepNesting | null {
  const stack: Container[] = [];
  let paragraph = false;
  let fence: { readonly depth: number; readonly marker: string; readonly length: number } | null =
    null;
  const lines = body.split(/\r\n|\n|\r/u);
  for (const [lineIndex, text] of lines.entries()) {
    const cursor = new LineCursor(text);
    const blank = isBlankLine(text);
    let matched = 0;
    while (matched < stack.length) {
      const container = stack[matched];
      if (container === undefined || !continues(cursor, container, blank)) break;
      matched += 1;
    }
    if (fence !== null) {
      if (matched >= fence.depth) {
        const closer = fenceStart.exec(cursor.rest().trim())?.[1];
        const closes =
          closer !== undefined &&
          closer.charAt(0) === fence.marker &&
          closer.length >= fence.length &&
          cursor.rest().trim() === closer;
        if (closes) fence = null;
        continue;
      }
      fence = null;
    }
    const rest = cursor.rest();
    const lazy: boolean =
      paragraph && !blank && matched < stack.length && !blockStart.test(rest.trimStart());
    if (!lazy) stack.length = matched;
    for (;;) {
      const column = cursor.index + 1;
      const container = opens(cursor);
      if (container === null) break;
      stack.push(container);
      if (stack.length > MAX_NESTING_DEPTH) return { line: lineIndex + 1, column };
    }
    const content = cursor.rest();
    const opener =
      cursor.indentation() <= 3 ? fenceStart.exec(content.trimStart())?.[1] : undefined;
    if (opener !== undefined) {
      fence = { depth: stack.length, marker: opener.charAt(0), length: opener.length };
      paragraph = false;
    } else {
      paragraph = !isBlankLine(content) && (lazy || cursor.indentation() < 4 || paragraph);
    }
  }
  return null;
}

/**
 * The longest run, at the start of a line, of the characters container markers and their
 * indentation are made of: spaces, tabs, `>`, `-`, `*`, `+`, digits, `.` and `)`.
 *
 * Every block quote and list item a line continues or opens takes at least one of them (a
 * continued item at least one space or tab of its indentation, a quote its `>`, an opened item
 * its marker), and none is opened on a blank or lazy line, so a text nests deeper than
 * {@link MAX_NESTING_DEPTH} only if this run is longer than that somewhere: most texts are
 * cleared without following their containers.
 */
function longestContainerPrefix(body: string, lines: LineTable): number {
  let longest = 0;
  for (let line = 0; line < lines.count; line += 1) {
    const start = lines.starts[line] ?? 0;
    const end = lines.ends[line] ?? 0;
    let position = start;
    while (position < end && isContainerPrefixCode(body.charCodeAt(position))) position += 1;
    if (position - start > longest) longest = position - start;
  }
  return longest;
}

function isContainerPrefixCode(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 62 ||
    code === 45 ||
    code === 42 ||
    code === 43 ||
    code === 46 ||
    code === 41 ||
    (code >= 48 && code <= 57)
  );
}
