import { splitLines, type TextLine } from "./text-lines.js";
import type { TextRange } from "./text-mask.js";

/**
 * Block quotes and list items a line may open before its text is no longer read: deeper text
 * is blanked in the parser's copy (so it is not prose). micromark's time grows with the
 * square of the nesting of one line (`> > > …`), and no agent nests this deep.
 */
export const MAX_CONTAINER_DEPTH = 16;

/**
 * Characters of a line given to the markdown parser; the rest of a longer line (its tail) is
 * blanked in the parser's copy and is prose exactly when the line's parsed part ends in prose.
 */
export const MAX_PARSED_LINE_LENGTH = 1000;

/** A line that opens a fenced code block: its indentation, fence and info string. */
const FENCE_OPEN = /^\s*(`{3,}(?=[^`]*$)|~{3,})/;

/** A list bullet or number that opens a list item, with the space after it (or the line end). */
const LIST_MARKER = /(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/y;

/** A thematic break: three or more `*`, `-` or `_` (the same one), spaces between. */
const THEMATIC_BREAK = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;

/** A link reference definition's label at the start of a line's text: `[label]:`. */
const DEFINITION_LABEL = /^\[[^\]]{0,999}\]:/;

/** The characters neutralised outside block syntax, by UTF-16 code: `*`, `_`, `[`, `]`. */
const INLINE_ONLY = new Set([42, 95, 91, 93]);

/** A fenced code block being read: its fence character and length. */
export interface OpenFence {
  /** The fence's character: a backtick or a tilde. */
  readonly character: string;
  /** How many of them open it: a closing fence has at least as many. */
  readonly length: number;
}

/** What {@link prepareMarkdownInput} made of a text. */
export interface MarkdownInput {
  /**
   * The copy the markdown parser reads: as long as the text, line breaks at the same offsets,
   * with fenced code blocks, text nested too deep and long lines' tails blanked, and emphasis
   * and link brackets outside block syntax replaced by letters.
   */
  readonly text: string;
  /** The fenced code blocks, whole lines from the opening fence to the closing one. */
  readonly fences: readonly TextRange[];
  /** The tails of the lines longer than {@link MAX_PARSED_LINE_LENGTH}. */
  readonly tails: readonly TextRange[];
}

/**
 * Follows fenced code blocks line by line. A fence opens on a line that starts (after any
 * spaces) with three backticks or tildes, and closes on a line of the same character, at
 * least as many, and nothing else.
 */
export class FenceTracker {
  /** The fence open after the last line read, or `null`. */
  open: OpenFence | null = null;

  /**
   * Reads one line.
   *
   * @param line - the line, without its line break.
   * @returns whether the line belongs to a fenced code block (its fences included).
   */
  read(line: string): boolean {
    if (this.open !== null) {
      if (closesFence(line, this.open)) this.open = null;
      return true;
    }
    const opening = FENCE_OPEN.exec(line)?.[1];
    if (opening === undefined) return false;
    this.open = { character: opening.charAt(0), length: opening.length };
    return true;
  }
}

/** Whether a line closes a fence: only spaces and at least as many of its characters. */
function closesFence(line: string, fence: OpenFence): boolean {
  const trimmed = line.trim();
  if (trimmed.length < fence.length) return false;
  for (let index = 0; index < trimmed.length; index += 1) {
    if (trimmed.charAt(index) !== fence.character) return false;
  }
  return true;
}

/**
 * Where a line's text starts after its block quote markers and list markers, and how many it
 * opens. Every marker counts, whatever the indentation before it.
 */
function containerPrefix(line: string): { readonly end: number; readonly depth: number } {
  let index = 0;
  let depth = 0;
  for (;;) {
    while (line.charCodeAt(index) === 32 || line.charCodeAt(index) === 9) index += 1;
    if (line.charCodeAt(index) === 62) {
      index += 1;
      depth += 1;
      continue;
    }
    LIST_MARKER.lastIndex = index;
    const marker = LIST_MARKER.exec(line);
    if (marker === null) return { end: index, depth };
    index += marker[0].length;
    depth += 1;
  }
}

/** The offset in a line after its first `depth` container markers. */
function afterContainers(line: string, depth: number): number {
  let index = 0;
  for (let opened = 0; opened < depth; opened += 1) {
    while (line.charCodeAt(index) === 32 || line.charCodeAt(index) === 9) index += 1;
    if (line.charCodeAt(index) === 62) {
      index += 1;
      continue;
    }
    LIST_MARKER.lastIndex = index;
    index += LIST_MARKER.exec(line)?.[0].length ?? 0;
  }
  return index;
}

/** Replaces every character of `characters[start, end)` but line breaks with a space. */
function blank(characters: string[], start: number, end: number): void {
  for (let index = start; index < end; index += 1) characters[index] = " ";
}

/** Blanks or neutralises what one line (outside fences) must not show the parser. */
function prepareLine(characters: string[], line: TextLine, tails: TextRange[]): void {
  const parsedEnd = Math.min(line.end, line.start + MAX_PARSED_LINE_LENGTH);
  if (parsedEnd < line.end) {
    tails.push({ start: parsedEnd, end: line.end });
    blank(characters, parsedEnd, line.end);
  }
  const head = line.text.slice(0, parsedEnd - line.start);
  const prefix = containerPrefix(head);
  if (prefix.depth > MAX_CONTAINER_DEPTH) {
    blank(characters, line.start + afterContainers(head, MAX_CONTAINER_DEPTH), parsedEnd);
    return;
  }
  const content = head.slice(prefix.end);
  if (THEMATIC_BREAK.test(content)) return;
  let from = line.start + prefix.end;
  const label = DEFINITION_LABEL.exec(content);
  if (label !== null) from += label[0].length;
  for (let index = from; index < parsedEnd; index += 1) {
    if (INLINE_ONLY.has(characters[index]?.charCodeAt(0) ?? 0)) characters[index] = "a";
  }
}

/**
 * Prepares an answer for the markdown parser so that parsing it takes linear time, whatever its
 * shape, and finds the prose as before:
 * - fenced code blocks are found here, line by line, and blanked (they are never prose);
 * - text nested in more than {@link MAX_CONTAINER_DEPTH} block quotes and list items on one
 *   line is blanked;
 * - a line's characters after the first {@link MAX_PARSED_LINE_LENGTH} are blanked (the
 *   caller reads them as the rest of the line's block);
 * - `*`, `_`, `[` and `]` that are not block syntax (list bullets, thematic breaks, a link
 *   definition's label) become letters: emphasis and links do not decide what is prose, and
 *   micromark resolves them in quadratic time on runs such as `a*a*a*…` or `[a]([a](…`.
 *
 * @param text - the answer, non-prose regions already blanked.
 * @param openFence - the fence open where the text starts (when it is a part of an answer).
 * @returns the parser's copy, the fenced code blocks and the long lines' tails.
 */
export function prepareMarkdownInput(
  text: string,
  openFence: OpenFence | null = null,
): MarkdownInput {
  const characters = text.split("");
  const fences: TextRange[] = [];
  const tails: TextRange[] = [];
  const tracker = new FenceTracker();
  tracker.open = openFence;
  let fenceStart: number | null = openFence === null ? null : 0;
  for (const line of splitLines(text)) {
    if (tracker.read(line.text)) {
      fenceStart ??= line.start;
      blank(characters, line.start, line.end);
      if (tracker.open === null) {
        fences.push({ start: fenceStart, end: line.end });
        fenceStart = null;
      }
      continue;
    }
    prepareLine(characters, line, tails);
  }
  if (fenceStart !== null) fences.push({ start: fenceStart, end: text.length });
  return { text: characters.join(""), fences, tails };
}
