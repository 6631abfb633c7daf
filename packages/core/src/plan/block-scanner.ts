import type { BlockContent, Heading, List, ListItem, Nodes } from "mdast";
import { readAtxHeading } from "./atx-heading.js";
import {
  continuesParagraph,
  isSetextUnderline,
  mayBeDefinition,
  quoteContent,
} from "./block-lines.js";
import { deferListItems, deferredTaskRecords } from "./deferred-list.js";
import { parseInline } from "./fast-inline.js";
import { closesFence, readFenceOpener } from "./fence-lines.js";
import { completeLazyParagraph } from "./lazy-paragraph.js";
import {
  codeNode,
  type FenceLeaf,
  type Leaf,
  openParagraph,
  type ParagraphLeaf,
  paragraphEnd,
  paragraphNode,
  type QuoteLeaf,
  quoteNode,
  recycleParagraph,
} from "./leaf-nodes.js";
import { type LineTable, type Point, pointAt } from "./line-table.js";
import { canStartList, isThematicBreak, type ListMarker, readListMarker } from "./list-marker.js";
import { LostStructure, lostStructure, ScanOutput } from "./scan-output.js";
import type { ScannedBlocks, TopLevelList } from "./scanned-blocks.js";
import { scannedCheckbox, scannedListItem } from "./scanned-list-item.js";
import { listTaskRecords } from "./task-records.js";

/** An open list item. */
interface OpenItem {
  item: ListItem;
  list: List;
  top: TopLevelList | null;
  /** The column (from the line start) where the item's content starts. */
  contentIndent: number;
  /** The bullet or delimiter of its list. */
  marker: number;
  /** The last line with content in the item. */
  lastLine: number;
  leaf: Leaf | null;
}

/**
 * Reads the blocks of a markdown text whose structure it can follow exactly, and marks what
 * it cannot read for micromark. See {@link scanBlocks}.
 */
class BlockScanner {
  private readonly text: string;
  private readonly output: ScanOutput;
  private stack: OpenItem[] = [];
  /** Closed items' records, to reuse. */
  private readonly spareItems: OpenItem[] = [];
  private rootLeaf: Leaf | null = null;
  private blankPending = false;
  /** The line being read, when no list item was open before it. */
  private cleanLine = -1;
  /** The end point of the block built last, for the item it ends to share. */
  private lastEnd: Point | null = null;

  /**
   * @param lines - the text's lines.
   * @param firstLine - the first line to read (0-based).
   * @param endLine - the line to stop before.
   * @param defer - whether the items of the top-level lists read whole are dropped once final,
   *   to be read again when first read (see `deferListItems`).
   */
  constructor(
    private readonly lines: LineTable,
    private readonly firstLine: number,
    private readonly endLine: number,
    defer: boolean,
  ) {
    this.text = lines.text;
    this.output = new ScanOutput(lines, defer ? (top) => deferList(lines, top.node) : null);
  }

  scan(): ScannedBlocks {
    let line = this.firstLine;
    while (line < this.endLine) {
      try {
        this.readLine(line);
        line += 1;
      } catch (error) {
        if (!(error instanceof LostStructure)) throw error;
        this.stack = [];
        this.rootLeaf = null;
        this.blankPending = false;
        line = this.output.recover(line);
      }
    }
    this.closeContainers(0);
    this.closeLeaf(0);
    this.output.finish();
    const entries = this.output.entries;
    for (const entry of entries) {
      if (entry.kind === "node") completeParagraphs(entry.node);
      else if (entry.kind === "list") completeParagraphs(entry.list.node);
    }
    return { entries, checkboxCount: this.output.checkboxCount };
  }

  // --- Lines -------------------------------------------------------------------------------

  private readLine(line: number): void {
    const text = this.text;
    const start = this.lines.starts[line] ?? 0;
    const end = this.lines.ends[line] ?? 0;
    if (this.stack.length === 0) this.cleanLine = line;
    let position = start;
    while (position < end && text.charCodeAt(position) === 32) position += 1;
    const indent = position - start;
    if (position < end && text.charCodeAt(position) === 9) {
      this.readTabbedFenceLine(line, start, end, indent);
      return;
    }
    const blank = position === end;
    const stack = this.stack;
    let matched = 0;
    while (matched < stack.length && (blank || indent >= (stack[matched]?.contentIndent ?? 0))) {
      matched += 1;
    }
    const deepest = stack.length;
    const leaf = this.leafAt(deepest);
    let fenceLeftOpen = false;
    if (leaf?.kind === "fence") {
      if (matched === deepest) {
        this.readFenceLine(leaf, deepest, line, start, position, end, indent);
        return;
      }
      fenceLeftOpen = true;
      this.output.fenceEnded(line);
      this.setLeaf(deepest, null);
    }
    if (blank) {
      this.closeLeaf(deepest);
      this.blankPending = true;
      return;
    }
    if (leaf?.kind === "quote") {
      this.readAfterQuote(leaf, line, position, end, indent);
      return;
    }
    if (matched < deepest) {
      if (this.readUnmatchedLine(line, position, end, indent, matched, fenceLeftOpen)) return;
      this.closeContainers(matched);
    }
    const relative = indent - this.containerIndent(matched);
    this.readBlockStart(matched, line, position, end, relative);
  }

  /**
   * A line that does not continue every open item: it may start a sibling item, a new list,
   * or be a lazy paragraph line. Returns whether it was read.
   */
  private readUnmatchedLine(
    line: number,
    position: number,
    end: number,
    indent: number,
    matched: number,
    fenceLeftOpen: boolean,
  ): boolean {
    const target = this.stack[matched];
    if (target === undefined) return false;
    const relative = indent - this.containerIndent(matched);
    const marker = relative <= 3 ? readListMarker(this.text, position, end) : null;
    if (
      marker !== null &&
      marker.ordered === target.list.ordered &&
      marker.marker === target.marker
    ) {
      this.closeContainers(matched);
      if (this.blankPending) target.list.spread = true;
      let list = target.list;
      let top = target.top;
      if (matched === 0 && top !== null) {
        this.output.beginUnit(line, top, this.cleanLine === line);
        top = this.output.listPart(top);
        list = top.node;
      }
      this.openItem(matched, line, position, end, marker, list, top);
      return true;
    }
    if (fenceLeftOpen) throw lostStructure;
    // micromark reads a new list here as not interrupting anything: the item that this line
    // does not continue has already given up the paragraph (its `notInCurrentItem`).
    if (marker !== null) {
      this.closeContainers(matched);
      this.openList(matched, line, position, end, marker);
      return true;
    }
    const leaf = this.leafAt(this.stack.length);
    if (leaf?.kind !== "paragraph") return false;
    const lazy = continuesParagraph(this.text, position, end, relative);
    if (lazy === "unknown") throw lostStructure;
    if (!lazy) return false;
    this.output.markUncertain();
    addLine(leaf, position, end, line);
    this.touch(line);
    return true;
  }

  /** A line whose indentation holds a tab: only fenced code content is read. */
  private readTabbedFenceLine(line: number, start: number, end: number, indent: number): void {
    const deepest = this.stack.length;
    const leaf = this.leafAt(deepest);
    const contentIndent = this.containerIndent(deepest);
    if (leaf?.kind !== "fence" || indent < leaf.strip || indent < contentIndent) {
      if (deepest === 0 && leaf === null) this.output.beginUnit(line, null, true);
      throw lostStructure;
    }
    let first = start + indent;
    while (
      first < end &&
      (this.text.charCodeAt(first) === 9 || this.text.charCodeAt(first) === 32)
    ) {
      first += 1;
    }
    if (first < end && this.text.charCodeAt(first) === leaf.opener.marker) throw lostStructure;
    leaf.lines.push({ line, start: start + leaf.strip });
    if (first < end) this.touch(line);
  }

  private readFenceLine(
    leaf: FenceLeaf,
    level: number,
    line: number,
    start: number,
    position: number,
    end: number,
    indent: number,
  ): void {
    const blank = position === end;
    const closes =
      !blank &&
      indent - leaf.contentIndent <= 3 &&
      closesFence(this.text, position, end, leaf.opener);
    if (closes) {
      this.touch(line);
      this.addBlock(level, codeNode(this.lines, leaf, line));
      this.lastEnd = null;
      this.setLeaf(level, null);
      return;
    }
    leaf.lines.push({ line, start: start + Math.min(indent, leaf.strip) });
    if (!blank) this.touch(line);
  }

  /** A line that starts a block, or continues a paragraph, in the container at `level`. */
  private readBlockStart(
    level: number,
    line: number,
    position: number,
    end: number,
    relative: number,
  ): void {
    const text = this.text;
    const leaf = this.leafAt(level);
    const paragraph = leaf?.kind === "paragraph" ? leaf : null;
    if (relative >= 4) {
      if (paragraph === null) this.lose(level, line);
      else this.continueParagraph(paragraph, line, position, end);
      return;
    }
    const code = text.charCodeAt(position);
    if (code === 62 && level === 0 && paragraph === null) {
      this.openQuote(line, position, end);
      return;
    }
    if (code === 62 || (code === 60 && paragraph === null)) this.lose(level, line);
    if (paragraph !== null && (code === 60 || isSetextUnderline(text, position, end))) {
      throw lostStructure;
    }
    const marker = readListMarker(text, position, end);
    if (marker !== null) {
      if (paragraph !== null && !canStartList(marker, true)) {
        this.continueParagraph(paragraph, line, position, end);
        return;
      }
      this.closeLeaf(level);
      this.openList(level, line, position, end, marker);
      return;
    }
    if (isThematicBreak(text, position, end)) this.lose(level, line);
    const heading = code === 35 ? readAtxHeading(text, position, end) : null;
    if (heading !== null) {
      this.closeLeaf(level);
      this.beginBlock(level, line);
      if (heading.hasTab) this.output.markUncertain();
      const content = { start: heading.contentStart, end: heading.contentEnd, line };
      const children =
        heading.contentEnd > heading.contentStart ? parseInline(this.lines, [content], null) : [];
      if (children === null) this.output.markUncertain();
      const node: Heading = {
        type: "heading",
        depth: heading.depth,
        children: children ?? [],
        position: {
          start: pointAt(this.lines, line, position),
          end: pointAt(this.lines, line, end),
        },
      };
      this.addBlock(level, node);
      this.touch(line);
      return;
    }
    const opener = code === 96 || code === 126 ? readFenceOpener(text, position, end) : null;
    if (opener !== null) {
      this.closeLeaf(level);
      this.beginBlock(level, line);
      if (opener.unusual) this.output.markUncertain();
      const contentIndent = this.containerIndent(level);
      this.setLeaf(level, {
        kind: "fence",
        opener,
        start: position,
        startLine: line,
        strip: contentIndent + relative,
        contentIndent,
        lines: [],
      });
      this.touch(line);
      return;
    }
    if (paragraph !== null) {
      this.continueParagraph(paragraph, line, position, end);
      return;
    }
    if (code === 91 && mayBeDefinition(text, position, end)) this.lose(level, line);
    this.beginBlock(level, line);
    this.setLeaf(level, openParagraph(position, line, position, end, false));
    this.touch(line);
  }

  /**
   * Gives up on the structure at a line that starts a block the scanner does not follow; at
   * the top level, that block starts a unit of its own (what came before is complete).
   */
  private lose(level: number, line: number): never {
    if (level === 0) {
      this.closeLeaf(0);
      this.output.beginUnit(line, null, this.cleanLine === line);
    }
    throw lostStructure;
  }

  private continueParagraph(leaf: ParagraphLeaf, line: number, position: number, end: number) {
    addLine(leaf, position, end, line);
    this.touch(line);
  }

  // --- Block quotes ------------------------------------------------------------------------

  private openQuote(line: number, position: number, end: number): void {
    const content = quoteContent(this.text, position, end);
    if (content < 0) this.lose(0, line);
    this.beginBlock(0, line);
    this.rootLeaf = {
      kind: "quote",
      start: position,
      startLine: line,
      lastLine: line,
      segments: [{ start: content, end, line }],
    };
  }

  /** A non-blank line after a line of a top-level block quote: its next line, or a block that ends it. */
  private readAfterQuote(
    leaf: QuoteLeaf,
    line: number,
    position: number,
    end: number,
    indent: number,
  ): void {
    const text = this.text;
    if (indent <= 3 && text.charCodeAt(position) === 62) {
      const content = quoteContent(text, position, end);
      if (content < 0 || isSetextUnderline(text, content, end)) throw lostStructure;
      leaf.segments.push({ start: content, end, line });
      leaf.lastLine = line;
      return;
    }
    // Anything but a block that interrupts the quote's paragraph would be a lazy line.
    const marker = indent <= 3 ? readListMarker(text, position, end) : null;
    const interrupts =
      indent <= 3 &&
      ((marker !== null && canStartList(marker, true)) ||
        isThematicBreak(text, position, end) ||
        readAtxHeading(text, position, end) !== null ||
        readFenceOpener(text, position, end) !== null);
    if (!interrupts) throw lostStructure;
    this.closeLeaf(0);
    this.readBlockStart(0, line, position, end, indent);
  }

  // --- Lists -------------------------------------------------------------------------------

  private openList(level: number, line: number, position: number, end: number, marker: ListMarker) {
    const node: List = {
      type: "list",
      ordered: marker.ordered,
      start: marker.value,
      spread: false,
      children: [],
    };
    let top: TopLevelList | null = null;
    if (level === 0) {
      top = { node, regions: [] };
      this.output.beginUnit(line, top, this.cleanLine === line);
      this.output.addList(top);
    } else {
      this.noteBlank(level);
      appendChild(this.itemAt(level), node);
    }
    this.openItem(level, line, position, end, marker, node, top);
  }

  private openItem(
    level: number,
    line: number,
    position: number,
    end: number,
    marker: ListMarker,
    list: List,
    top: TopLevelList | null,
  ): void {
    if (marker.empty || marker.unusual) throw lostStructure;
    this.blankPending = false;
    const start = pointAt(this.lines, line, position);
    const item = scannedListItem(start);
    if (list.children.length === 0) list.position = { start, end: start };
    appendChild(list, item);
    const contentIndent = marker.contentStart - (this.lines.starts[line] ?? 0);
    const open = this.spareItems.pop();
    if (open === undefined) {
      this.stack.push({
        item,
        list,
        top,
        contentIndent,
        marker: marker.marker,
        lastLine: line,
        leaf: null,
      });
    } else {
      open.item = item;
      open.list = list;
      open.top = top;
      open.contentIndent = contentIndent;
      open.marker = marker.marker;
      open.lastLine = line;
      open.leaf = null;
      this.stack.push(open);
    }
    this.touch(line);
    const content = marker.contentStart;
    const text = this.text;
    if (text.charCodeAt(content) === 91 && this.openTaskParagraph(item, line, content, end)) return;
    if (readListMarker(text, content, end) !== null || isThematicBreak(text, content, end)) {
      throw lostStructure;
    }
    this.readBlockStart(level + 1, line, content, end, 0);
  }

  /** Opens the paragraph of a task item, if the item starts with a checkbox and text. */
  private openTaskParagraph(item: ListItem, line: number, content: number, end: number): boolean {
    const text = this.text;
    const value = text.charCodeAt(content + 1);
    const after = text.charCodeAt(content + 3);
    const isBox =
      (value === 32 || value === 120 || value === 88) &&
      text.charCodeAt(content + 2) === 93 &&
      content + 3 < end &&
      (after === 32 || after === 9);
    if (!isBox) return false;
    let rest = content + 4;
    while (rest < end && (text.charCodeAt(rest) === 32 || text.charCodeAt(rest) === 9)) rest += 1;
    if (rest === end) throw lostStructure;
    item.checked = value !== 32;
    this.output.recordCheckbox(item, { start: content + 1, end: content + 2 });
    this.setLeaf(this.stack.length, openParagraph(content, line, content + 3, end, true));
    return true;
  }

  /** Closes the open items from `level` on (the deepest first). */
  private closeContainers(level: number): void {
    while (this.stack.length > level) {
      this.closeLeaf(this.stack.length);
      const open = this.stack.pop();
      if (open === undefined) break;
      const endLine = open.lastLine;
      const offset = this.lines.ends[endLine] ?? 0;
      const end =
        this.lastEnd?.offset === offset ? this.lastEnd : pointAt(this.lines, endLine, offset);
      if (open.item.position !== undefined) open.item.position.end = end;
      if (open.list.position !== undefined) open.list.position.end = end;
      this.spareItems.push(open);
    }
  }

  // --- Leaves ------------------------------------------------------------------------------

  private closeLeaf(level: number): void {
    const leaf = this.leafAt(level);
    if (leaf === null) return;
    this.setLeaf(level, null);
    if (leaf.kind === "fence") {
      this.output.markUncertain();
      return;
    }
    let node: BlockContent | null;
    if (leaf.kind === "quote") {
      node = quoteNode(this.lines, leaf);
      this.lastEnd = null;
    } else {
      const last = paragraphEnd(leaf);
      const end = pointAt(this.lines, last.line, last.end);
      node = paragraphNode(this.lines, leaf, end);
      recycleParagraph(leaf);
      this.lastEnd = end;
    }
    if (node === null) this.output.markUncertain();
    else this.addBlock(level, node);
  }

  // --- Containers --------------------------------------------------------------------------

  private leafAt(level: number): Leaf | null {
    return level === 0 ? this.rootLeaf : (this.stack[level - 1]?.leaf ?? null);
  }

  private setLeaf(level: number, leaf: Leaf | null): void {
    if (level === 0) this.rootLeaf = leaf;
    else {
      const open = this.stack[level - 1];
      if (open !== undefined) open.leaf = leaf;
    }
  }

  /** The column where the content of the container at `level` starts. */
  private containerIndent(level: number): number {
    return level === 0 ? 0 : (this.stack[level - 1]?.contentIndent ?? 0);
  }

  private itemAt(level: number): ListItem {
    const open = this.stack[level - 1];
    if (open === undefined) throw lostStructure;
    return open.item;
  }

  private addBlock(level: number, node: BlockContent): void {
    if (level === 0) this.output.addBlock(node);
    else appendChild(this.itemAt(level), node);
  }

  /** A block starts in the container at `level`: a new top-level unit, or a block of an item. */
  private beginBlock(level: number, line: number): void {
    if (level === 0) this.output.beginUnit(line, null, this.cleanLine === line);
    else this.noteBlank(level);
  }

  /** A blank line before a block of an item makes the item spread. */
  private noteBlank(level: number): void {
    const open = this.stack[level - 1];
    if (this.blankPending && open !== undefined) open.item.spread = true;
  }

  /** A non-blank line belongs to every open item. */
  private touch(line: number): void {
    for (const open of this.stack) open.lastLine = line;
    this.blankPending = false;
  }
}

/** Adds a line to a paragraph. */
function addLine(leaf: ParagraphLeaf, start: number, end: number, line: number): void {
  const segment = { start, end, line };
  if (leaf.more === null) leaf.more = [segment];
  else leaf.more.push(segment);
}

/**
 * Adds a child to a node. Up to four children, the array is made anew at its exact length: an
 * array that a child is pushed to takes room for seventeen or more, and most items and lists
 * here have one to three children.
 */
function appendChild(parent: List | ListItem, child: ListItem | BlockContent): void {
  if (parent.type === "list") {
    if (child.type === "listItem") parent.children = withChild(parent.children, child);
  } else if (child.type !== "listItem") {
    parent.children = withChild(parent.children, child);
  }
}

/** `children` with `child` added: a new array of the exact length while short, else pushed to. */
function withChild<Child>(children: Child[], child: Child): Child[] {
  switch (children.length) {
    case 0:
      return [child];
    case 1:
      return [children[0] as Child, child];
    case 2:
      return [children[0] as Child, children[1] as Child, child];
    case 3:
      return [children[0] as Child, children[1] as Child, children[2] as Child, child];
    default:
      children.push(child);
      return children;
  }
}

/**
 * Reads the blocks of a markdown text that it can read exactly as micromark (with
 * mdast-util-from-markdown and the GFM task-list extensions) would, building the same mdast
 * nodes with the same positions, and marks the rest as regions for micromark.
 *
 * It follows list items (bullets and numbers, nested), ATX headings, paragraphs (inline text
 * as `parseInline` reads it), fenced code, top-level block quotes of one paragraph and blank
 * lines, line by line as CommonMark does. When a block holds something it does not read but
 * its extent is known (a link, an unclosed fence, a lazy line), the top-level block or
 * top-level list item holding it becomes a region. When the structure itself is unknown
 * (other block quotes, HTML, indented code, setext headings, thematic breaks, tabs in
 * indentation, link reference definitions), the region runs to the next line where a chunk
 * may start (see `nextChunkStart`), and scanning starts afresh there. A region always starts
 * where micromark reads as from the start of a text (see `ScanOutput`).
 *
 * With `defer`, the items of a top-level list it read whole are dropped once nothing can change
 * them, and read again (by scanning the list's lines alone) only when its `children` are first
 * read; its tasks are known without them (see `deferListItems`).
 *
 * @param lines - the text's lines (the text without byte order mark, without NUL characters).
 * @param defer - whether lists read whole are deferred.
 * @returns the top-level entries and the number of task items built.
 */
export function scanBlocks(lines: LineTable, defer = false): ScannedBlocks {
  return new BlockScanner(lines, 0, lines.count, defer).scan();
}

/**
 * Completes the lazy paragraphs of a block that stays in the tree (see
 * `completeLazyParagraph`), but for those of deferred lists: reading such a list again
 * completes its own.
 */
function completeParagraphs(node: Nodes): void {
  if (completeLazyParagraph(node) || !("children" in node)) return;
  if (node.type === "list" && deferredTaskRecords(node) !== undefined) return;
  const children: readonly Nodes[] = node.children;
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index];
    if (child !== undefined) completeParagraphs(child);
  }
}

/** Defers the items of a top-level list the scanner read whole (see `deferListItems`). */
function deferList(lines: LineTable, list: List): void {
  const position = list.position;
  if (position === undefined) return;
  const records = listTaskRecords(list, scannedCheckbox);
  const firstLine = position.start.line - 1;
  const endLine = position.end.line;
  deferListItems(list, records, () => rereadItems(lines, firstLine, endLine));
}

/** The items of the top-level list that lines `firstLine` to `endLine` (excluded) hold. */
function rereadItems(lines: LineTable, firstLine: number, endLine: number): ListItem[] {
  const { entries } = new BlockScanner(lines, firstLine, endLine, false).scan();
  const entry = entries[0];
  if (entries.length !== 1 || entry?.kind !== "list" || entry.list.regions.length > 0) {
    throw new Error("A deferred list's lines read as something else the second time");
  }
  return entry.list.node.children;
}
