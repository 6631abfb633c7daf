import { type CharacterClass, classifyCharacter } from "./character-class.js";
import { type DelimiterRun, resolveEmphasis } from "./emphasis.js";
import type { LineTable } from "./line-table.js";

/** One line of an inline text: the content between its indentation and its line ending. */
export interface InlineSegment {
  /** Offset of the first character. */
  readonly start: number;
  /** Offset just after the last character. */
  readonly end: number;
  /** The 0-based line. */
  readonly line: number;
}

/** More runs of `*` and `_` than this and the text is left to micromark (pairing is quadratic). */
const MAX_DELIMITER_RUNS = 100;

/** Characters of text: `start` to `end`. */
export const DATA = 0;
/** A line ending (from the end of line `line` to the start of the next). */
export const EOL = 1;
/** A code span: `start` to `end`, its content from `codeStart` to `codeEnd`. */
export const CODE = 2;
/** A run of `*` or `_`: see `run`. */
export const RUN = 3;

/**
 * The pieces of the inline text last read by {@link readInlinePieces}, in order, in arrays
 * reused from call to call (reading is not re-entrant, and allocates little): what each piece
 * is, its offsets and line, and the delimiter run of a run.
 */
export const pieces = {
  count: 0,
  kinds: [] as number[],
  starts: [] as number[],
  ends: [] as number[],
  lines: [] as number[],
  codeStarts: [] as number[],
  codeEnds: [] as number[],
  runs: [] as (DelimiterRun | null)[],
};

/** The delimiter runs of the text being read (reused, like {@link pieces}). */
const delimiterRuns: DelimiterRun[] = [];
/** Run objects, reused from one read to the next. */
const runPool: DelimiterRun[] = [];

const BACKSLASH = 92;
const BACKTICK = 96;
const ASTERISK = 42;
const UNDERSCORE = 95;

/**
 * Reads the inline content of a paragraph or heading into {@link pieces}, for the inline
 * syntax the fast path knows: text, line endings, code spans on one line, and emphasis and
 * strong with `*` and `_` (paired by {@link resolveEmphasis}, as micromark pairs them). It
 * gives up, returning false, on what it does not read: a backslash, `[`, `<`, a possible
 * character reference (`&` then a letter, digit or `#`), a NUL, a code span across lines,
 * spaces or tabs before a line ending or at the end, and more than 100 runs of `*` and `_`.
 *
 * @param lines - the text's lines.
 * @param segments - the content of each line, in order (at least one).
 * @param previous - the character before the first segment (`null` at the start of the text).
 * @returns whether the text was read.
 */
export function readInlinePieces(
  lines: LineTable,
  segments: readonly InlineSegment[],
  previous: number | null,
): boolean {
  pieces.count = 0;
  const runs = delimiterRuns;
  let runCount = 0;
  const text = lines.text;
  const count = segments.length;
  for (let index = 0; index < count; index += 1) {
    const segment = segments[index];
    if (segment === undefined) return false;
    const { start, end, line } = segment;
    const last = text.charCodeAt(end - 1);
    if (end > start && (last === 32 || last === 9)) return false;
    const before = index === 0 ? previous : 10;
    const after = index === count - 1 ? null : 10;
    let dataStart = start;
    let position = start;
    while (position < end) {
      const code = text.charCodeAt(position);
      if (code === ASTERISK || code === UNDERSCORE) {
        if (position > dataStart) addPiece(DATA, dataStart, position, line);
        let runEnd = position + 1;
        while (runEnd < end && text.charCodeAt(runEnd) === code) runEnd += 1;
        const previousCode = position > start ? text.charCodeAt(position - 1) : before;
        const nextCode = runEnd < end ? text.charCodeAt(runEnd) : after;
        if (runCount === MAX_DELIMITER_RUNS) return false;
        const run = delimiterRun(runCount, code, position, runEnd, previousCode, nextCode);
        runs[runCount] = run;
        runCount += 1;
        addPiece(RUN, position, runEnd, line);
        pieces.runs[pieces.count - 1] = run;
        position = runEnd;
        dataStart = runEnd;
      } else if (code === BACKTICK) {
        let runEnd = position + 1;
        while (runEnd < end && text.charCodeAt(runEnd) === BACKTICK) runEnd += 1;
        const length = runEnd - position;
        const closer = findCodeCloser(text, runEnd, end, length);
        if (closer < 0) {
          if (closesOnLaterLine(text, segments, index + 1, length)) return false;
          position = runEnd;
          continue;
        }
        if (position > dataStart) addPiece(DATA, dataStart, position, line);
        addPiece(CODE, position, closer + length, line);
        pieces.codeStarts[pieces.count - 1] = runEnd;
        pieces.codeEnds[pieces.count - 1] = closer;
        position = closer + length;
        dataStart = position;
      } else if (code < 128 && plainAscii[code] === 1) {
        // Plain text: skip to the next character that may matter (a line ending at the latest).
        special.lastIndex = position + 1;
        // `test` finds it without building a match (the match is one character long).
        position = special.test(text) ? Math.min(special.lastIndex - 1, end) : end;
      } else {
        if (code === 91 || code === BACKSLASH || code === 60 || code === 0) return false;
        if (code === 38 && startsReference(text.charCodeAt(position + 1))) return false;
        position += 1;
      }
    }
    if (end > dataStart) addPiece(DATA, dataStart, end, line);
    if (index < count - 1) addPiece(EOL, lines.ends[line] ?? 0, lines.starts[line + 1] ?? 0, line);
  }
  if (runCount > 0) resolveEmphasis(runs, runCount);
  return true;
}

/**
 * The value of a code span piece: its content, less one space on each side when both sides
 * have one and it is not all spaces.
 *
 * @param text - the text.
 * @param index - the piece's index.
 */
export function codeSpanValue(text: string, index: number): string {
  const start = pieces.codeStarts[index] ?? 0;
  const end = pieces.codeEnds[index] ?? 0;
  if (end - start >= 2 && text.charCodeAt(start) === 32 && text.charCodeAt(end - 1) === 32) {
    for (let position = start + 1; position < end - 1; position += 1) {
      if (text.charCodeAt(position) !== 32) return text.slice(start + 1, end - 1);
    }
  }
  return text.slice(start, end);
}

function addPiece(kind: number, start: number, end: number, line: number): void {
  const index = pieces.count;
  pieces.kinds[index] = kind;
  pieces.starts[index] = start;
  pieces.ends[index] = end;
  pieces.lines[index] = line;
  pieces.runs[index] = null;
  pieces.count = index + 1;
}

/**
 * 1 for the ASCII characters that are always plain text here: all but NUL, `&`, `*`, `<`, `[`,
 * `\`, `_` and the backtick.
 */
const plainAscii = Uint8Array.from({ length: 128 }, (_, code) =>
  code === 0 || "&*<[\\_`".includes(String.fromCharCode(code)) ? 0 : 1,
);

/**
 * The characters that may start inline syntax, or end a line (so that a search from a line
 * never reads past it): what {@link plainAscii} leaves out.
 */
const special = /[\0&*<[\\_`\n\r]/gu;

/** Whether `&` followed by this character may start a character reference. */
function startsReference(next: number): boolean {
  return next === 35 || (next >= 48 && next <= 57) || ((next | 32) >= 97 && (next | 32) <= 122);
}

/** micromark's flanking rules for a run between `previous` and `next` (the `index`-th run). */
function delimiterRun(
  index: number,
  marker: number,
  start: number,
  end: number,
  previous: number | null,
  next: number | null,
): DelimiterRun {
  const before = flankingClass(classifyCharacter(previous));
  const after = flankingClass(classifyCharacter(next));
  const open = after === 0 || (after === 2 && before !== 0);
  const close = before === 0 || (before === 2 && after !== 0);
  const asterisk = marker === ASTERISK;
  const run = runPool[index] ?? {
    marker,
    canOpen: false,
    canClose: false,
    start,
    end,
    closes: [],
    closeCount: 0,
    opens: [],
    openCount: 0,
    inside: false,
  };
  runPool[index] = run;
  run.marker = marker;
  run.canOpen = asterisk ? open : open && (before !== 0 || !close);
  run.canClose = asterisk ? close : close && (after !== 0 || !open);
  run.start = start;
  run.end = end;
  run.closeCount = 0;
  run.openCount = 0;
  run.inside = false;
  return run;
}

/** 0 for other characters, 1 for whitespace, 2 for punctuation (micromark's numbers). */
function flankingClass(characterClass: CharacterClass): number {
  if (characterClass === "whitespace") return 1;
  return characterClass === "punctuation" ? 2 : 0;
}

/** The offset of the run of exactly `length` backticks after `from` on the line, or -1. */
function findCodeCloser(text: string, from: number, end: number, length: number): number {
  let position = from;
  while (position < end) {
    if (text.charCodeAt(position) !== BACKTICK) {
      position += 1;
      continue;
    }
    let runEnd = position + 1;
    while (runEnd < end && text.charCodeAt(runEnd) === BACKTICK) runEnd += 1;
    if (runEnd - position === length) return position;
    position = runEnd;
  }
  return -1;
}

function closesOnLaterLine(
  text: string,
  segments: readonly InlineSegment[],
  from: number,
  length: number,
): boolean {
  for (let index = from; index < segments.length; index += 1) {
    const segment = segments[index];
    if (segment !== undefined && findCodeCloser(text, segment.start, segment.end, length) >= 0) {
      return true;
    }
  }
  return false;
}
