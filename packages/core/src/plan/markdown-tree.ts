import type { ListItem, Nodes, Root } from "mdast";
import {
  type CompileContext,
  type Extension,
  fromMarkdown,
  type Token,
} from "mdast-util-from-markdown";
import { gfmTaskListItemFromMarkdown } from "mdast-util-gfm-task-list-item";
import { gfmTaskListItem } from "micromark-extension-gfm-task-list-item";
import { type ChunkStart, chunkStarts } from "./markdown-chunks.js";

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

/**
 * Parses markdown with GFM task-list items into an mdast tree, recording where each
 * checkbox's value lies as micromark tokenised it.
 *
 * A leading byte order mark is split off first, because micromark skips it and counts
 * offsets without it: positions in the tree are offsets into `body`. A long text is
 * parsed in chunks cut before its top-level headings (see {@link chunkStarts}) and the
 * chunks' trees joined, which gives the same tree in linear rather than quadratic time.
 *
 * @param markdown - the plan text.
 * @returns the tree, the byte order mark, the body and the checkboxes.
 * @throws {TypeError} when `markdown` is not a string.
 */
export function parseMarkdownTree(markdown: string): MarkdownTree {
  if (typeof markdown !== "string") {
    throw new TypeError(`A plan must be markdown text (a string), got ${describe(markdown)}`);
  }
  let bomLength = 0;
  while (markdown.charCodeAt(bomLength) === 0xfeff) bomLength += 1;
  const bom = markdown.slice(0, bomLength);
  const body = markdown.slice(bomLength);
  const starts = chunkStarts(body);
  if (starts.length > 0) {
    const chunked = parseChunks(body, starts);
    if (chunked !== null) return { ...chunked, bom, body };
  }
  const checkboxes = new Map<ListItem, CheckboxSpan>();
  const root = parseChunk(body, 0, checkboxes);
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
    for (const child of chunk.children) {
      if (!shiftPositions(child, start)) return null;
      root.children.push(child);
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
