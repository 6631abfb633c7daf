import type { List, ListItem, Root, RootContent } from "mdast";
import { scanBlocks } from "./block-scanner.js";
import { type LineTable, pointAt } from "./line-table.js";
import type { ChunkSize } from "./markdown-chunks.js";
import type { CheckboxSpan } from "./markdown-tree.js";
import { parseRange } from "./micromark-chunks.js";
import type { Continuation, Region, TopLevelList } from "./scanned-blocks.js";
import { TreeCheckboxes } from "./scanned-list-item.js";
import { continuesList, joinLists } from "./tree-join.js";

/**
 * Parses a markdown text into the mdast tree micromark gives, fast: the blocks the scanner
 * reads exactly (see `scanBlocks`) are built directly, and only the regions it leaves to
 * micromark are parsed by micromark (each in chunks, see `parseRange`), then put in place and
 * joined to the lists they continue.
 *
 * @param lines - the lines of the text (without byte order mark).
 * @param size - the chunk size for the regions micromark parses.
 * @param defer - whether the items of lists the scanner reads whole are read again only when
 *   first read (see `scanBlocks`): not when the tree's text values are changed after.
 * @returns the tree and the checkboxes, or `null` when the text must be parsed whole by
 *   micromark: it holds a NUL character or a link reference definition.
 */
export function parseFast(
  lines: LineTable,
  size?: ChunkSize,
  defer = false,
): { readonly root: Root; readonly checkboxes: ReadonlyMap<ListItem, CheckboxSpan> } | null {
  const body = lines.text;
  if (body.includes("\0")) return null;
  const { entries, checkboxCount } = scanBlocks(lines, defer);
  /** The checkboxes of the items micromark parses (the scanner's keep theirs). */
  const checkboxes = new Map<ListItem, CheckboxSpan>();
  const children: RootContent[] = [];
  const add = (node: RootContent, continues: Continuation): boolean => {
    const previous = children.at(-1);
    if (continues === "yes") {
      if (previous?.type !== "list" || node.type !== "list") return false;
      joinLists(body, previous, node);
    } else if (
      continues === "check" &&
      previous !== undefined &&
      continuesList(body, previous, node)
    ) {
      joinLists(body, previous, node);
    } else {
      children.push(node);
    }
    return true;
  };
  const parse = (region: Region) =>
    parseRange(body, { offset: region.start, line: region.line }, region.end, checkboxes, size);
  for (const entry of entries) {
    if (entry.kind === "node") {
      if (!add(entry.node, entry.continues)) return null;
    } else if (entry.kind === "list") {
      const list = withRegionItems(entry.list, parse);
      if (list === null || !add(list, entry.continues)) return null;
    } else {
      const range = parse(entry.region);
      if (range === null) return null;
      for (const [index, child] of range.children.entries()) {
        if (!add(child, index === 0 ? entry.continues : "no")) return null;
      }
    }
  }
  const root: Root = {
    type: "root",
    children,
    position: {
      start: { line: 1, column: 1, offset: 0 },
      end: pointAt(lines, lines.count - 1, body.length),
    },
  };
  return { root, checkboxes: new TreeCheckboxes(root, checkboxCount, checkboxes) };
}

/**
 * A top-level list with the items micromark parsed put in place; `null` if they are not one
 * list. Where micromark's items start or end the list, so do its positions (an unclosed fence
 * can end an item, and so the list, past its last line), and a blank line between them makes
 * the list spread.
 */
function withRegionItems(
  top: TopLevelList,
  parse: (region: Region) => { readonly children: RootContent[] } | null,
): List | null {
  const node = top.node;
  for (let index = top.regions.length - 1; index >= 0; index -= 1) {
    const region = top.regions[index];
    if (region === undefined) continue;
    const parsed = parse(region)?.children;
    const list = parsed?.[0];
    if (parsed?.length !== 1 || list?.type !== "list") return null;
    const last = region.index === node.children.length;
    node.children.splice(region.index, 0, ...list.children);
    if (list.spread) node.spread = true;
    if (node.position !== undefined && list.position !== undefined) {
      if (region.index === 0) node.position.start = list.position.start;
      if (last) node.position.end = list.position.end;
    }
  }
  return node;
}
