import { isBlankLine } from "./blank-line.js";
/** Where a chunk of a markdown text starts. */
export interface ChunkStart {
  /** 0-based offset of the chunk's first character (a line start). */
  readonly offset: number;
  /** 1-based line of that character. */
  readonly line: number;
}

const atxHeading = /^#{1,6}(?:[ \t]|$)/u;
// `s`: an info string may hold U+2028 or U+2029, which `.` does not match otherwise.
const fenceOpener = /^(`{3,}|~{3,})(.*)$/su;
const fenceCloser = /^ {0,3}(`{3,}|~{3,})[ \t]*$/u;
/** The indentation and container markers (`>`, bullets, numbers) a line starts with. */
const containerPrefix = /^(?:[ \t]*(?:>|[-*+](?=[ \t]|$)|[0-9]{1,9}[.)](?=[ \t]|$)))*[ \t]*/u;
/** A bullet list item with text, in column 1: it starts an item of a top-level list. */
const topLevelBullet = /^([-*+])[ \t]+\S/u;
const thematicBreak = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/u;

/** The HTML blocks that end on a line holding a marker, with the marker. */
const markedHtmlBlocks: readonly (readonly [RegExp, RegExp])[] = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[ \t>]|$)/iu, /<\/(?:script|pre|style|textarea)>/iu],
  [/^ {0,3}<!--/u, /-->/u],
  [/^ {0,3}<\?/u, /\?>/u],
  [/^ {0,3}<!\[CDATA\[/u, /\]\]>/u],
  [/^ {0,3}<![A-Za-z]/u, />/u],
];

/** How large a chunk must be before it is cut. */
export interface ChunkSize {
  /** Lines a chunk holds at least (unless its section ends the text). */
  readonly lines: number;
  /** Or characters (UTF-16 code units). */
  readonly length: number;
}

/** A chunk is cut only once it has 40 lines or 2,000 characters, to keep parses few. */
export const DEFAULT_CHUNK_SIZE: ChunkSize = Object.freeze({ lines: 40, length: 2000 });

/**
 * What must end before the text can be cut again, as it is read line by line. Each line that
 * may open a fenced code block or an HTML block adds its condition, even inside another:
 * what looks like HTML may be a paragraph's lazy line, and the fence after it real.
 */
interface OpenRegions {
  /** An open fence: its character and length. */
  fence: { readonly marker: string; readonly length: number } | null;
  /** The end markers of open HTML blocks of kinds 1 to 5 (`-->`, `</pre>`, …). */
  readonly htmlEnds: RegExp[];
  /** Whether an HTML block that ends at a blank line may be open. */
  untilBlankLine: boolean;
}

function isOpen(regions: OpenRegions): boolean {
  return regions.fence !== null || regions.htmlEnds.length > 0 || regions.untilBlankLine;
}

/** Adds the HTML block a line may open, unless it ends on the same line. */
function openHtml(regions: OpenRegions, text: string): void {
  for (const [start, end] of markedHtmlBlocks) {
    const opening = start.exec(text);
    if (opening === null) continue;
    if (!end.test(text.slice(opening[0].length))) regions.htmlEnds.push(end);
    return;
  }
  regions.untilBlankLine = true;
}

/** Removes what a line ends: a fence it closes, HTML blocks whose end marker it holds. */
function closeRegions(regions: OpenRegions, text: string): void {
  if (regions.fence !== null) {
    const closer = fenceCloser.exec(text)?.[1];
    if (closer?.[0] === regions.fence.marker && closer.length >= regions.fence.length) {
      regions.fence = null;
    }
    return;
  }
  if (isBlankLine(text)) regions.untilBlankLine = false;
  for (let index = regions.htmlEnds.length - 1; index >= 0; index -= 1) {
    if (regions.htmlEnds[index]?.test(text)) regions.htmlEnds.splice(index, 1);
  }
}

/** What a line opens that the search must follow or stop at. */
type Opening = { readonly marker: string; readonly length: number } | "html" | "stop" | null;

/**
 * What a line opens: a fence in column 1 (followed to its closing fence), an HTML block
 * indented by up to 3 spaces (followed to its end), or `"stop"` for a fence or HTML start after
 * other indentation or after container markers (`  ```` `, `- ```` `, `> <div>`): such a block
 * may belong to a list item or block quote and end with it, and micromark then ends the item
 * where the next line's content starts, so no chunk may start after it.
 */
function lineOpens(text: string): Opening {
  const prefix = containerPrefix.exec(text)?.[0] ?? "";
  const rest = text.slice(prefix.length);
  const fence = fenceOpener.exec(rest);
  const marker = fence?.[1];
  const isFence =
    marker !== undefined && !(marker.startsWith("`") && (fence?.[2] ?? "").includes("`"));
  if (!isFence && !rest.startsWith("<")) return null;
  if (prefix === "") return isFence ? { marker: marker.charAt(0), length: marker.length } : "html";
  if (!isFence && /^ {0,3}$/u.test(prefix)) return "html";
  return "stop";
}

/**
 * Finds the lines where a markdown text can be cut into chunks that parse, one by one,
 * into the blocks the whole text parses into (lists cut in two are joined again by the
 * caller): outside fenced code and HTML blocks, the lines that start with an ATX heading
 * in column 1 (`# …` to `###### …`), and the lines that start a bullet list item with text
 * in column 1 (`- …`, `* …`, `+ …`, thematic breaks aside).
 *
 * Such a line always starts a top-level block: it cannot continue a container (a list item
 * or block quote needs indentation or `>`, and neither a heading nor a list item is a lazy
 * line), it interrupts a paragraph, and only a top-level fenced code block or HTML block
 * could contain it. Fences opened in column 1 are followed exactly (they close on a matching
 * fence), and so are HTML blocks (to their end marker, or to a blank line). The search
 * stops, conservatively, at an indented fence or an HTML start indented by 4 columns or more
 * (which may belong to a list item, and end where it ends): no chunk starts after it. A chunk is cut only once it holds 40 lines or 2,000
 * characters, so that a plan of many small sections is not parsed in as many parses.
 *
 * This exists because micromark moves every event seen so far each time a container
 * closes, which makes one parse of a plan with thousands of sections, or of one list with
 * thousands of items, quadratic; parsing chunks keeps it linear. Link reference definitions
 * apply to the whole document, so callers must parse the whole text when a chunk holds one.
 *
 * @param body - the markdown text, without byte order mark.
 * @param size - how large a chunk must be before it is cut (smaller in tests).
 * @returns the starts of the second and later chunks, in order (empty: do not split).
 */
export function chunkStarts(body: string, size: ChunkSize = DEFAULT_CHUNK_SIZE): ChunkStart[] {
  const starts: ChunkStart[] = [];
  let chunkLine = 1;
  let chunkOffset = 0;
  for (const start of chunkBoundaries(body, { offset: 0, line: 1 })) {
    const large = start.line - chunkLine >= size.lines || start.offset - chunkOffset >= size.length;
    if (start.offset > 0 && large) {
      starts.push(start);
      chunkLine = start.line;
      chunkOffset = start.offset;
    }
  }
  return starts;
}

/**
 * The first line after `from` where a chunk may start, as {@link chunkStarts} finds them
 * (whatever the chunk size), reading from `from` on.
 *
 * @param body - the markdown text, without byte order mark.
 * @param from - a line where a top-level block starts and nothing is open.
 * @returns the next chunk start, or `null` when no chunk starts after `from`.
 */
export function nextChunkStart(body: string, from: ChunkStart): ChunkStart | null {
  for (const start of chunkBoundaries(body, from)) {
    if (start.offset > from.offset) return start;
  }
  return null;
}

/**
 * Reads a text line by line from `from`, where nothing is open, and yields every line where
 * a chunk may start (see {@link chunkStarts}), up to the end or to an indented fence (or
 * HTML start indented by 4 columns or more).
 */
function* chunkBoundaries(body: string, from: ChunkStart): Generator<ChunkStart, void> {
  const regions: OpenRegions = { fence: null, htmlEnds: [], untilBlankLine: false };
  let line = from.line;
  let lineStart = from.offset;
  while (lineStart < body.length) {
    let lineEnd = lineStart;
    while (lineEnd < body.length && !isLineEnding(body.charCodeAt(lineEnd))) lineEnd += 1;
    const text = body.slice(lineStart, lineEnd);

    if (isOpen(regions)) {
      const inFence = regions.fence !== null;
      closeRegions(regions, text);
      if (!inFence && !open(regions, text)) return;
    } else if (atxHeading.test(text) || (topLevelBullet.test(text) && !thematicBreak.test(text))) {
      yield { offset: lineStart, line };
      if (lineOpens(text) === "stop") return;
    } else if (!open(regions, text)) {
      return;
    }

    const crlf = body.charCodeAt(lineEnd) === 13 && body.charCodeAt(lineEnd + 1) === 10;
    lineStart = lineEnd + (crlf ? 2 : 1);
    line += 1;
  }
}

/** Adds what a line opens to the open regions; false when the search must stop there. */
function open(regions: OpenRegions, text: string): boolean {
  const opening = lineOpens(text);
  if (opening === "stop") return false;
  if (opening === "html") openHtml(regions, text);
  else if (opening !== null) regions.fence = opening;
  return true;
}

function isLineEnding(code: number): boolean {
  return code === 10 || code === 13;
}
