import type { Nodes, RootContent } from "mdast";
import type { Point } from "./line-table.js";
import type { ChunkStart } from "./markdown-chunks.js";

/** The bullet character of a list item: the first character of its marker. */
function bulletOf(body: string, item: Nodes | undefined): string {
  let offset = item?.position?.start.offset ?? 0;
  while (body.charAt(offset) === " " || body.charAt(offset) === "\t") offset += 1;
  return body.charAt(offset);
}

/**
 * Whether a chunk's first block continues the list the previous chunk ended with: a chunk
 * cut before a bullet item splits a list in two that one parse reads as one.
 *
 * @param body - the whole text.
 * @param previous - the last block of the tree so far.
 * @param next - the first block of the next chunk.
 */
export function continuesList(body: string, previous: Nodes, next: Nodes): boolean {
  if (previous.type !== "list" || next.type !== "list" || previous.ordered || next.ordered) {
    return false;
  }
  return bulletOf(body, previous.children.at(-1)) === bulletOf(body, next.children[0]);
}

/**
 * Appends the items of `next` to `previous`, as one parse of both would have read them: the
 * list is spread when either part is or when a blank line lies between them.
 *
 * @param body - the whole text.
 * @param previous - a list.
 * @param next - the list that continues it.
 */
export function joinLists(body: string, previous: Nodes, next: Nodes): void {
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
 *
 * @param node - a node parsed from a chunk.
 * @param start - where the chunk starts in the whole text.
 * @returns false on a definition, whose meaning spans chunks.
 */
export function shiftPositions(node: RootContent | Nodes, start: ChunkStart): boolean {
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

/**
 * A chunk's point moved to its place in the whole text.
 *
 * @param point - a point of the chunk (its line and offset count from the chunk's start).
 * @param start - where the chunk starts in the whole text.
 */
export function shiftPoint(point: Point, start: ChunkStart): Point {
  return {
    line: point.line + start.line - 1,
    column: point.column,
    offset: (point.offset ?? 0) + start.offset,
  };
}
