import type { ListItem, Nodes, Root } from "mdast";
import {
  type CompileContext,
  type Extension,
  fromMarkdown,
  type Token,
} from "mdast-util-from-markdown";
import { gfmTaskListItemFromMarkdown } from "mdast-util-gfm-task-list-item";
import { gfmTaskListItem } from "micromark-extension-gfm-task-list-item";
import { neutralizeLongParagraphs, restoreNeutralizedText } from "./long-paragraphs.js";
import { type ChunkSize, type ChunkStart, chunkStarts } from "./markdown-chunks.js";
import { findTooDeepNesting, MAX_NESTING_DEPTH } from "./nesting-depth.js";
import { PlanParseError } from "./plan-parse-error.js";

/**
 * Where the value of a task item's checkbox lies (the ` `, `x` or `X` between the
 * brackets), as 0-based UTF-16 offsets into {@link MarkdownTree.body}.
 */
export interface CheckboxSpan {
  /** Offset of the first character of the value. */
  readonly start: number;
  /** Offset just after the value. */
  readonly end: number;
}

/** A plan's markdown parsed into an mdast tree, with what editing needs to know. */
export interface MarkdownTree {
  /** The mdast root. */
  readonly root: Root;
  /** The leading byte order mark(s) of the input, or `""`. */
  readonly bom: string;
  /** The input without its byte order mark: every position in `root` is an offset into it. */
  readonly body: string;
  /** The checkbox of every GFM task-list item of the tree, by list item. */
  readonly checkboxes: ReadonlyMap<ListItem, CheckboxSpan>;
}

/** Options of {@link parseMarkdownTree}. */
export interface MarkdownTreeOptions {
  /** The plan's file name, for the error of a plan nested too deep. */
  readonly file?: string | undefined;
  /** How large a chunk must be before it is cut (smaller in tests). */
  readonly chunkSize?: ChunkSize | undefined;
}

/**
 * Parses markdown with GFM task-list items into an mdast tree, recording where each
 * checkbox's value lies as micromark tokenised it.
 *
 * A leading byte order mark is split off first, because micromark skips it and counts
 * offsets without it: positions in the tree are offsets into `body`. A long text is
 * parsed in chunks cut before its top-level headings and bullet items (see
 * {@link chunkStarts}) and the chunks' trees joined, which gives the same tree in linear
 * rather than quadratic time. A text nesting block quotes and list items deeper than
 * {@link MAX_NESTING_DEPTH} is refused before it is parsed, and in a paragraph longer than
 * 4,000 characters emphasis and links are read as plain text (see
 * {@link neutralizeLongParagraphs}), which keeps every parse linear.
 *
 * @param markdown - the plan text.
 * @param options - the file name for errors, the chunk size.
 * @returns the tree, the byte order mark, the body and the checkboxes.
 * @throws {TypeError} when `markdown` is not a string.
 * @throws {PlanParseError} when the text nests deeper than {@link MAX_NESTING_DEPTH}, at
 *   the line and column of the marker that goes too deep.
 */
export function parseMarkdownTree(
  markdown: string,
  options?: MarkdownTreeOptions | null,
): MarkdownTree {
  if (typeof markdown !== "string") {
    throw new TypeError(`A plan must be markdown text (a string), got ${describe(markdown)}`);
  }
  let bomLength = 0;
  while (markdown.charCodeAt(bomLength) === 0xfeff) bomLength += 1;
  const bom = markdown.slice(0, bomLength);
  const body = markdown.slice(bomLength);
  const tooDeep = findTooDeepNesting(body);
  if (tooDeep !== null) {
    throw new PlanParseError({
      issues: [
        {
          message: `block quotes and list items are nested more than ${MAX_NESTING_DEPTH} deep here; a plan may nest at most ${MAX_NESTING_DEPTH} levels`,
          line: tooDeep.line,
          column: tooDeep.column,
        },
      ],
      file: options?.file,
    });
  }
  const neutralized = neutralizeLongParagraphs(body);
  const parsed = neutralized.text;
  const starts = chunkStarts(parsed, options?.chunkSize);
  if (starts.length > 0) {
    const chunked = parseChunks(parsed, starts);
    if (chunked !== null) {
      restoreNeutralizedText(chunked.root, body, parsed, neutralized.ranges);
      return { ...chunked, bom, body };
    }
  }
  const checkboxes = new Map<ListItem, CheckboxSpan>();
  const root = parseChunk(parsed, 0, checkboxes);
  restoreNeutralizedText(root, body, parsed, neutralized.ranges);
  return { root, bom, body, checkboxes };
}

function parseChunk(text: string, offset: number, checkboxes: Map<ListItem, CheckboxSpan>): Root {
  function recordCheckbox(this: CompileContext, token: Token): undefined {
    // Entered inside the item's first paragraph: the list item is just below it.
    const item = this.stack[this.stack.length - 2];
    if (item?.type === "listItem") {
      checkboxes.set(item, { start: token.start.offset + offset, end: token.end.offset + offset });
    }
  }
  const checkboxRecorder: Extension = {
    enter: {
      taskListCheckValueChecked: recordCheckbox,
      taskListCheckValueUnchecked: recordCheckbox,
    },
  };
  return fromMarkdown(text, {
    extensions: [gfmTaskListItem()],
    mdastExtensions: [gfmTaskListItemFromMarkdown(), checkboxRecorder],
  });
}

/** A position's point: 1-based line and column, 0-based offset. */
type Point = NonNullable<Nodes["position"]>["start"];

/** Parses each chunk and joins the trees; `null` when a chunk holds a definition. */
function parseChunks(
  body: string,
  starts: readonly ChunkStart[],
): Pick<MarkdownTree, "root" | "checkboxes"> | null {
  const checkboxes = new Map<ListItem, CheckboxSpan>();
  const bounds = [{ offset: 0, line: 1 }, ...starts];
  const root: Root = { type: "root", children: [] };
  for (const [index, start] of bounds.entries()) {
    const end = bounds[index + 1]?.offset ?? body.length;
    const chunk = parseChunk(body.slice(start.offset, end), start.offset, checkboxes);
    for (const [childIndex, child] of chunk.children.entries()) {
      if (!shiftPositions(child, start)) return null;
      const previous = root.children.at(-1);
      if (childIndex === 0 && previous !== undefined && continuesList(body, previous, child)) {
        joinLists(body, previous, child);
      } else {
        root.children.push(child);
      }
    }
    const chunkEnd = chunk.position?.end;
    if (index === bounds.length - 1 && chunkEnd !== undefined) {
      root.position = {
        start: { line: 1, column: 1, offset: 0 },
        end: shiftPoint(chunkEnd, start),
      };
    }
  }
  return { root, checkboxes };
}

/** The bullet character of a list item: the first character of its marker. */
function bulletOf(body: string, item: ListItem | undefined): string {
  let offset = item?.position?.start.offset ?? 0;
  while (body.charAt(offset) === " " || body.charAt(offset) === "\t") offset += 1;
  return body.charAt(offset);
}

/**
 * Whether a chunk's first block continues the list the previous chunk ended with: a chunk
 * cut before a bullet item splits a list in two that one parse reads as one.
 */
function continuesList(body: string, previous: Nodes, next: Nodes): boolean {
  if (previous.type !== "list" || next.type !== "list" || previous.ordered || next.ordered) {
    return false;
  }
  return bulletOf(body, previous.children.at(-1)) === bulletOf(body, next.children[0]);
}

/** Appends the items of `next` to `previous`, as one parse of both would have read them. */
function joinLists(body: string, previous: Nodes, next: Nodes): void {
  if (previous.type !== "list" || next.type !== "list") return;
  const between = body.slice(previous.position?.end.offset ?? 0, next.position?.start.offset ?? 0);
  const lineEndings = between.match(/\r\n|\n|\r/g)?.length ?? 0;
  previous.spread = Boolean(previous.spread) || Boolean(next.spread) || lineEndings >= 2;
  previous.children.push(...next.children);
  if (previous.position !== undefined && next.position !== undefined) {
    previous.position = { start: previous.position.start, end: next.position.end };
  }
}

/**
 * Moves a chunk's node and its descendants to their place in the whole text.
 * Returns false on a definition, whose meaning spans chunks.
 */
function shiftPositions(node: Nodes, start: ChunkStart): boolean {
  if (node.type === "definition") return false;
  const position = node.position;
  if (position !== undefined) {
    node.position = {
      start: shiftPoint(position.start, start),
      end: shiftPoint(position.end, start),
    };
  }
  if ("children" in node) {
    for (const child of node.children) if (!shiftPositions(child, start)) return false;
  }
  return true;
}

function shiftPoint(point: Point, start: ChunkStart): Point {
  return {
    line: point.line + start.line - 1,
    column: point.column,
    offset: (point.offset ?? 0) + start.offset,
  };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}
