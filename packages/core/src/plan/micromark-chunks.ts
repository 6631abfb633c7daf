import type { ListItem, Root, RootContent } from "mdast";
import {
  type CompileContext,
  type Extension,
  fromMarkdown,
  type Token,
} from "mdast-util-from-markdown";
import { gfmTaskListItemFromMarkdown } from "mdast-util-gfm-task-list-item";
import { gfmTaskListItem } from "micromark-extension-gfm-task-list-item";
import type { Point } from "./line-table.js";
import { type ChunkSize, type ChunkStart, chunkStarts } from "./markdown-chunks.js";
import type { CheckboxSpan } from "./markdown-tree.js";
import { continuesList, joinLists, shiftPoint, shiftPositions } from "./tree-join.js";

/**
 * Parses a text with micromark (mdast-util-from-markdown and the GFM task-list extensions),
 * recording where each task item's checkbox value lies as micromark tokenised it.
 *
 * @param text - the markdown to parse.
 * @param offset - where `text` starts in the whole text: checkbox spans are offsets into it.
 * @param checkboxes - where to record the checkboxes.
 * @returns the tree, with positions counted from the start of `text`.
 */
export function parseWithMicromark(
  text: string,
  offset: number,
  checkboxes: Map<ListItem, CheckboxSpan>,
): Root {
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

/** Blocks parsed from a range of a text, and the end of the range's last parse. */
export interface ParsedRange {
  /** The range's top-level blocks, positioned in the whole text. */
  readonly children: RootContent[];
  /** The end point of the last chunk's root, in the whole text. */
  readonly end: Point | undefined;
}

/**
 * Parses a range of a text with micromark, in chunks (see {@link chunkStarts}) whose trees
 * are joined, so that the time stays linear in the range's length.
 *
 * @param body - the whole text.
 * @param from - where the range starts: a line where a top-level block starts.
 * @param to - where it ends: a line start, or the end of the text.
 * @param checkboxes - where to record the checkboxes.
 * @param size - the chunk size.
 * @returns the blocks, or `null` when a chunk holds a link reference definition (its meaning
 *   spans chunks: the caller parses the whole text at once).
 */
export function parseRange(
  body: string,
  from: ChunkStart,
  to: number,
  checkboxes: Map<ListItem, CheckboxSpan>,
  size?: ChunkSize,
): ParsedRange | null {
  const range = body.slice(from.offset, to);
  const bounds = [
    from,
    ...chunkStarts(range, size).map((start) => ({
      offset: start.offset + from.offset,
      line: start.line + from.line - 1,
    })),
  ];
  const children: RootContent[] = [];
  let end: Point | undefined;
  for (const [index, start] of bounds.entries()) {
    const chunkEnd = bounds[index + 1]?.offset ?? to;
    const chunk = parseWithMicromark(body.slice(start.offset, chunkEnd), start.offset, checkboxes);
    for (const [childIndex, child] of chunk.children.entries()) {
      if (!shiftPositions(child, start)) return null;
      const previous = children.at(-1);
      if (childIndex === 0 && previous !== undefined && continuesList(body, previous, child)) {
        joinLists(body, previous, child);
      } else {
        children.push(child);
      }
    }
    const rootEnd = chunk.position?.end;
    end = rootEnd === undefined ? undefined : shiftPoint(rootEnd, start);
  }
  return { children, end };
}

/**
 * Parses a whole text with micromark, in chunks when it can be cut (see {@link chunkStarts}),
 * else, or when it holds a link reference definition, at once. This is how plans were parsed
 * before the fast scanner, and what it falls back to.
 *
 * @param body - the text, without byte order mark.
 * @param size - the chunk size.
 * @returns the tree and the checkboxes.
 */
export function parseAllWithMicromark(
  body: string,
  size?: ChunkSize,
): { readonly root: Root; readonly checkboxes: Map<ListItem, CheckboxSpan> } {
  if (chunkStarts(body, size).length > 0) {
    const checkboxes = new Map<ListItem, CheckboxSpan>();
    const range = parseRange(body, { offset: 0, line: 1 }, body.length, checkboxes, size);
    if (range !== null) {
      const root: Root = { type: "root", children: range.children };
      if (range.end !== undefined) {
        root.position = { start: { line: 1, column: 1, offset: 0 }, end: range.end };
      }
      return { root, checkboxes };
    }
  }
  const checkboxes = new Map<ListItem, CheckboxSpan>();
  return { root: parseWithMicromark(body, 0, checkboxes), checkboxes };
}
