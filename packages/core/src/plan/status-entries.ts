import type { Heading, ListItem, Nodes, Paragraph } from "mdast";
import type { PlanBlock } from "./plan-outline.js";
import { normalizeStatusKey } from "./status-keys.js";

/**
 * One `key: value` line of the RALPH_STATUS section as text: its key, its value and where they
 * lie. Offsets are into the plan's body.
 */
export interface StatusValue {
  /** The key as written, emphasis and code markers removed (`EXIT_SIGNAL`). */
  readonly key: string;
  /** The key normalised by {@link normalizeStatusKey} (`exit_signal`). */
  readonly normalizedKey: string;
  /** The value as written, trimmed, emphasis and code markers around it removed. */
  readonly value: string;
  /** Offset of the value's first character (where a value goes when it is empty). */
  readonly valueStart: number;
  /** Offset just after the value. */
  readonly valueEnd: number;
  /** Whether a value written into an empty value needs a space before it (`KEY:` then `KEY: v`). */
  readonly needsSpace: boolean;
  /** Offset of the end of the entry's line, before its line ending. */
  readonly lineEnd: number;
  /** Offset of the first non-blank character of the entry's line. */
  readonly lineStart: number;
}

/** One `key: value` line of the RALPH_STATUS section, with the list item it is in. */
export interface StatusEntry extends StatusValue {
  /** The list item the entry is written in, or `null` for a bare `key: value` line. */
  readonly item: ListItem | null;
}

/** The plan's RALPH_STATUS section as written. */
export interface StatusSection {
  /** The section's heading. */
  readonly heading: Heading;
  /** Every `key: value` entry, in document order. */
  readonly entries: readonly StatusEntry[];
  /** The last top-level list item of the section, where new entries go when it has no entries. */
  readonly lastItem: ListItem | null;
  /** The items of the section's top-level lists (not nested ones). */
  readonly topLevelItems: ReadonlySet<ListItem>;
}

const keyPattern = /^[A-Za-z][A-Za-z0-9_ -]*$/u;
const markerCharacters = /^[*_`]+/u;
const wrappingMarker = /^(?:\*\*|__|\*|_|`+)/u;

/**
 * Reads the entries of the RALPH_STATUS section from the blocks whose role is `status`:
 * every line of the first paragraph of every list item (nested items included) and every
 * line of every top-level paragraph that reads as `key: value`. Entries in code blocks,
 * raw HTML and block quotes are not read.
 *
 * @param body - the plan's text without byte order mark.
 * @param heading - the section's heading.
 * @param blocks - the plan's classified top-level blocks.
 * @returns the section.
 */
export function readStatusSection(
  body: string,
  heading: Heading,
  blocks: readonly PlanBlock[],
): StatusSection {
  const entries: StatusEntry[] = [];
  let lastItem: ListItem | null = null;
  const topLevelItems = new Set<ListItem>();
  for (const block of blocks) {
    if (block.role.kind !== "status") continue;
    if (block.node.type === "paragraph") readParagraph(body, block.node, null, entries);
    if (block.node.type === "list") {
      for (const item of block.node.children) topLevelItems.add(item);
      lastItem = block.node.children.at(-1) ?? lastItem;
      visitList(body, block.node, entries);
    }
  }
  return { heading, entries, lastItem, topLevelItems };
}

function visitList(body: string, node: Nodes, entries: StatusEntry[]): void {
  if (node.type === "list") {
    for (const item of node.children) visitList(body, item, entries);
    return;
  }
  if (node.type !== "listItem") return;
  const paragraph = node.children.find((child) => child.type === "paragraph");
  if (paragraph !== undefined) readParagraph(body, paragraph, node, entries);
  for (const child of node.children) visitList(body, child, entries);
}

function readParagraph(
  body: string,
  paragraph: Paragraph,
  item: ListItem | null,
  entries: StatusEntry[],
): void {
  const start = paragraph.position?.start.offset;
  const end = paragraph.position?.end.offset;
  if (start === undefined || end === undefined) return;
  let lineStart = start;
  // A task item's paragraph may start at its checkbox: the entry follows the box.
  const startsWithCheckbox = body.charCodeAt(start) === 91 && body.charCodeAt(start + 2) === 93;
  if (typeof item?.checked === "boolean" && startsWithCheckbox) lineStart += 3;
  while (lineStart < end) {
    while (lineStart < end && isBlank(body.charCodeAt(lineStart))) lineStart += 1;
    let lineEnd = lineStart;
    while (lineEnd < end && !isLineEnding(body.charCodeAt(lineEnd))) lineEnd += 1;
    const entry = readStatusLine(body, lineStart, lineEnd, item);
    if (entry !== null) entries.push(entry);
    lineStart = lineEnd;
    while (lineStart < end && isLineEnding(body.charCodeAt(lineStart))) lineStart += 1;
  }
}

/**
 * Reads one line as a `key: value` entry. The key may be wrapped in emphasis or code
 * (`**EXIT_SIGNAL**:`, `**EXIT_SIGNAL:**`, `` `EXIT_SIGNAL`: ``), and so may the value
 * (`**true**`); the markers are kept out of the key and of the value's span.
 *
 * @param body - the plan's body.
 * @param lineStart - offset of the line's first non-blank character.
 * @param lineEnd - offset of the line's end, before its line ending.
 * @param item - the list item the line is in, or `null`.
 * @returns the entry, or `null` when the line is not `key: value`.
 */
export function readStatusLine(
  body: string,
  lineStart: number,
  lineEnd: number,
  item: ListItem | null,
): StatusEntry | null {
  const line = body.slice(lineStart, lineEnd);
  const colon = line.indexOf(":");
  if (colon < 0) return null;
  const rawKey = line.slice(0, colon);
  const key = rawKey
    .replace(/\\/gu, "")
    .replace(/^[*_`\s]+|[*_`\s]+$/gu, "")
    .trim();
  if (!keyPattern.test(key)) return null;

  let valueStart = colon + 1;
  const keyOpensMarkup = markerCharacters.test(rawKey);
  const keyClosesMarkup = /[*_`]\s*$/u.test(rawKey);
  if (keyOpensMarkup && !keyClosesMarkup) {
    valueStart += markerCharacters.exec(line.slice(valueStart))?.[0].length ?? 0;
  }
  while (valueStart < line.length && isBlank(line.charCodeAt(valueStart))) valueStart += 1;
  let valueEnd = line.length;
  while (valueEnd > valueStart && isBlank(line.charCodeAt(valueEnd - 1))) valueEnd -= 1;
  [valueStart, valueEnd] = unwrapMarkup(line, valueStart, valueEnd);

  const before = line.charCodeAt(valueStart - 1);
  return {
    key,
    normalizedKey: normalizeStatusKey(key),
    value: line.slice(valueStart, valueEnd),
    valueStart: lineStart + valueStart,
    valueEnd: lineStart + valueEnd,
    needsSpace: valueStart === valueEnd && !isBlank(before),
    lineStart,
    lineEnd,
    item,
  };
}

function unwrapMarkup(line: string, start: number, end: number): [number, number] {
  let valueStart = start;
  let valueEnd = end;
  for (;;) {
    const value = line.slice(valueStart, valueEnd);
    const marker = wrappingMarker.exec(value)?.[0];
    if (marker === undefined || value.length <= marker.length * 2) break;
    if (!value.endsWith(marker)) break;
    valueStart += marker.length;
    valueEnd -= marker.length;
  }
  return [valueStart, valueEnd];
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

function isLineEnding(code: number): boolean {
  return code === 10 || code === 13;
}
