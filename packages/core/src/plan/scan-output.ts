import type { List, ListItem, RootContent } from "mdast";
import type { LineTable } from "./line-table.js";
import { isThematicBreak } from "./list-marker.js";
import { nextChunkStart } from "./markdown-chunks.js";
import type { CheckboxSpan } from "./markdown-tree.js";
import type {
  Continuation,
  ItemRegion,
  Region,
  ScannedEntry,
  TopLevelList,
} from "./scanned-blocks.js";
import { setScannedCheckbox } from "./scanned-list-item.js";

/**
 * A top-level block or top-level list item being scanned (a unit), with what to undo if it
 * must be left to micromark: how many entries, items and regions there were, and how many
 * checkboxes had been recorded, when it started.
 */
interface Unit {
  startLine: number;
  entryCount: number;
  /** The top-level list it is an item of, or `null` for another block. */
  top: TopLevelList | null;
  itemCount: number;
  regionCount: number;
  checkboxCount: number;
  /** The continuation its first entry takes. */
  continues: Continuation;
  /**
   * Whether micromark reads from its first line as it reads from the start of a text, so
   * that a region may start there: no list item was open before the line, or the line
   * starts with an ATX heading or a bullet item in column 1 (where the reference parse cuts
   * its chunks too).
   */
  safe: boolean;
  /** Whether some block of it must be parsed by micromark (its structure is known). */
  uncertain: boolean;
  /**
   * The line that ended a fenced code block of it left open, by not continuing its list item
   * (-1: none). micromark then ends the item where that line's content starts: if that line
   * starts the next unit, the two must be parsed together.
   */
  fenceEndedAt: number;
}

/** Thrown when the scanner cannot follow the structure of the text any more. */
export class LostStructure extends Error {}

/** The one instance thrown (an error's stack trace is costly to capture). */
export const lostStructure = new LostStructure("the scanner lost the structure of the text");

/**
 * What the block scanner produces, unit by unit: the top-level entries (built nodes, lists,
 * regions for micromark) and the checkboxes, and the bookkeeping that turns a unit the scanner
 * cannot build into a region, started where micromark can start reading.
 */
export class ScanOutput {
  readonly entries: ScannedEntry[] = [];
  /**
   * How many task items had their checkbox recorded (a unit's are undone with it). The
   * checkbox itself is kept in the item (see `setScannedCheckbox`).
   */
  checkboxCount = 0;
  /** How many entries from the start are final: no unit undone later reaches back to them. */
  private finalCount = 0;
  private unit: Unit | null = null;
  /** The latest unit where a region may start. */
  private safeUnit: Unit | null = null;
  /** Units done with, to reuse (a plan has one per top-level block and item). */
  private readonly spareUnits: Unit[] = [];
  /** The continuation of the next entry. */
  private continues: Continuation = "no";

  /**
   * @param lines - the text's lines.
   * @param onFinal - told of each top-level list the scanner read whole (no region cuts into
   *   it, it continues no list before it) once nothing can change its items any more (a unit
   *   where a region may start begins after it); `null` when none need be.
   */
  constructor(
    private readonly lines: LineTable,
    private readonly onFinal: ((list: TopLevelList) => void) | null = null,
  ) {}

  /**
   * A unit starts at `line`: the one before it ends there (and becomes a region if it must).
   *
   * @param line - the unit's first line.
   * @param top - the top-level list it is an item of, or `null`.
   * @param clean - whether no list item was open before the line.
   * @throws {LostStructure} when the unit before left a fence open that this line ended.
   */
  beginUnit(line: number, top: TopLevelList | null, clean: boolean): void {
    const previous = this.unit;
    if (previous?.fenceEndedAt === line) throw lostStructure;
    this.finishUnit(this.lines.starts[line] ?? 0);
    const unit = this.spareUnits.pop() ?? ({} as Unit);
    unit.startLine = line;
    unit.entryCount = this.entries.length;
    unit.top = top;
    unit.itemCount = top?.node.children.length ?? 0;
    unit.regionCount = top?.regions.length ?? 0;
    unit.checkboxCount = this.checkboxCount;
    unit.continues = this.continues;
    unit.safe = clean || this.startsChunk(line);
    unit.uncertain = false;
    unit.fenceEndedAt = -1;
    this.unit = unit;
    const safeBefore = this.safeUnit;
    if (unit.safe) this.safeUnit = unit;
    this.release(previous);
    this.release(safeBefore);
    if (unit.safe && this.onFinal !== null) this.finalize(unit);
  }

  /**
   * The entries before a unit where a region may start are final: a region folded later
   * starts at that unit at the earliest. Each top-level list among them that the scanner read
   * whole goes to `onFinal`, but for the list the unit is an item of (more items may come).
   */
  private finalize(unit: Unit): void {
    const onFinal = this.onFinal;
    if (onFinal === null) return;
    let index = this.finalCount;
    for (; index < unit.entryCount; index += 1) {
      const entry = this.entries[index];
      if (entry?.kind !== "list") continue;
      if (entry.list === unit.top) break;
      const top = entry.list;
      if (entry.continues === "no" && top.regions.length === 0 && top.sealed !== true) {
        onFinal(top);
      }
    }
    this.finalCount = index;
  }

  /** Keeps a unit no longer current nor safe for the next {@link beginUnit}. */
  private release(unit: Unit | null): void {
    if (unit === null || unit === this.unit || unit === this.safeUnit) return;
    if (this.spareUnits.length < 4 && !this.spareUnits.includes(unit)) this.spareUnits.push(unit);
  }

  /** Some block of the current unit must be parsed by micromark. */
  markUncertain(): void {
    if (this.unit !== null) this.unit.uncertain = true;
  }

  /** A fenced code block of the current unit was left open, ended by `line`. */
  fenceEnded(line: number): void {
    this.markUncertain();
    if (this.unit !== null) this.unit.fenceEndedAt = line;
  }

  /** Adds a top-level block of the current unit. */
  addBlock(node: RootContent): void {
    this.entries.push({ kind: "node", node, continues: this.takeContinuation() });
  }

  /** Adds a top-level list the current unit starts. */
  addList(top: TopLevelList): void {
    this.entries.push({ kind: "list", list: top, continues: this.takeContinuation() });
  }

  /**
   * The part of a top-level list the current unit's item goes into: a new part, continuing
   * the list, when a region cut into it.
   */
  listPart(top: TopLevelList): TopLevelList {
    if (top.sealed !== true) return top;
    const node: List = {
      type: "list",
      ordered: top.node.ordered,
      start: top.node.start,
      spread: false,
      children: [],
    };
    const part: TopLevelList = { node, regions: [] };
    this.entries.push({ kind: "list", list: part, continues: "yes" });
    const unit = this.unit;
    if (unit !== null && unit.top === top) {
      unit.top = part;
      unit.itemCount = 0;
      unit.regionCount = 0;
    }
    return part;
  }

  /** Records a task item's checkbox. */
  recordCheckbox(item: ListItem, span: CheckboxSpan): void {
    setScannedCheckbox(item, span);
    this.checkboxCount += 1;
  }

  /** Ends the last unit at the end of the text. */
  finish(): void {
    this.finishUnit(this.lines.text.length);
  }

  /**
   * The scanner lost the structure at `line`: from where a region may start, before or at
   * the current unit, to the next line where a chunk may start, the text goes to micromark.
   *
   * @param line - the line where the scanner gave up.
   * @returns the line to scan on from (the line count at the end of the text).
   */
  recover(line: number): number {
    const unit = this.unit;
    this.unit = null;
    const from = unit === null ? null : unit.safe ? unit : (this.safeUnit ?? unit);
    const startLine = from?.startLine ?? line;
    // After a fence left open, micromark's reading of the item depends on the line after it.
    const searchLine = unit?.fenceEndedAt === line ? line : startLine;
    const searchStart = this.lines.starts[searchLine] ?? 0;
    const next = nextChunkStart(this.lines.text, { offset: searchStart, line: searchLine + 1 });
    this.fold(from, startLine, next?.offset ?? this.lines.text.length);
    this.continues = "check";
    this.safeUnit = null;
    return next === null ? this.lines.count : next.line - 1;
  }

  /** Ends the current unit at `end`; one that must be parsed by micromark becomes a region. */
  private finishUnit(end: number): void {
    const unit = this.unit;
    this.unit = null;
    if (unit === null || !unit.uncertain) return;
    const top = unit.top;
    if (unit.safe && top !== null) {
      // An item read whole: its list keeps a place for the items micromark makes of it.
      this.undoCheckboxes(unit.checkboxCount);
      top.node.children.length = unit.itemCount;
      addItemRegion(top, {
        start: this.lines.starts[unit.startLine] ?? 0,
        line: unit.startLine + 1,
        end,
      });
      return;
    }
    this.fold(unit.safe ? unit : (this.safeUnit ?? unit), unit.startLine, end);
  }

  /**
   * Undoes what was built from the unit `from` on, and adds a region from its first line (or
   * from `line` without a unit) to `end`.
   */
  private fold(from: Unit | null, line: number, end: number): void {
    const startLine = from?.startLine ?? line;
    let continues = this.continues;
    if (from !== null) {
      // Lists the region takes in or cuts into: their next items start a new part.
      for (let index = from.entryCount; index < this.entries.length; index += 1) {
        const entry = this.entries[index];
        if (entry?.kind === "list") entry.list.sealed = true;
      }
      this.entries.length = from.entryCount;
      this.undoCheckboxes(from.checkboxCount);
      continues = from.continues;
      const top = from.top;
      if (top !== null) {
        top.node.children.length = from.itemCount;
        top.regions.length = from.regionCount;
        if (from.itemCount > 0 || from.regionCount > 0) continues = "yes";
        top.sealed = true;
      }
    }
    const start = this.lines.starts[startLine] ?? 0;
    if (from?.top) clipRegions(from.top.regions, start);
    const last = this.entries.at(-1);
    // A region before `from` may have been extended over it since: it ends where this starts.
    if (last?.kind === "region" && last.region.end >= start) {
      last.region.end = end;
      return;
    }
    this.entries.push({ kind: "region", region: { start, line: startLine + 1, end }, continues });
  }

  private undoCheckboxes(count: number): void {
    this.checkboxCount = count;
  }

  private takeContinuation(): Continuation {
    const continues = this.continues;
    this.continues = "no";
    return continues;
  }

  /** Whether a line starts with an ATX heading or a bullet item with text, in column 1. */
  private startsChunk(line: number): boolean {
    const text = this.lines.text;
    const start = this.lines.starts[line] ?? 0;
    const code = text.charCodeAt(start);
    const end = this.lines.ends[line] ?? 0;
    if (code === 35) {
      let hashes = start;
      while (hashes < end && text.charCodeAt(hashes) === 35) hashes += 1;
      const after = text.charCodeAt(hashes);
      return hashes - start <= 6 && (hashes === end || after === 32 || after === 9);
    }
    if (code !== 45 && code !== 42 && code !== 43) return false;
    const after = text.charCodeAt(start + 1);
    if (after !== 32 && after !== 9) return false;
    let index = start + 2;
    while (index < end && (text.charCodeAt(index) === 32 || text.charCodeAt(index) === 9))
      index += 1;
    return index < end && !isThematicBreak(text, start, end);
  }
}

/** Cuts item regions that were extended past `start` back to it (they were extended in a unit undone). */
function clipRegions(regions: ItemRegion[], start: number): void {
  const last = regions.at(-1);
  if (last !== undefined && last.end > start) last.end = start;
  if (last !== undefined && last.end <= last.start) regions.pop();
}

/** Adds an item region to a top-level list, joining it to the one before when adjacent. */
function addItemRegion(top: TopLevelList, region: Region): void {
  const index = top.node.children.length;
  const last = top.regions.at(-1);
  if (last !== undefined && last.index === index && last.end === region.start) {
    last.end = region.end;
    return;
  }
  const itemRegion: ItemRegion = { ...region, index };
  top.regions.push(itemRegion);
}
