import type { List, RootContent } from "mdast";

/**
 * Whether what comes next continues the list the tree ends with: `"yes"` (the scanner
 * followed the list and knows it does), `"no"`, or `"check"` (after a region whose structure
 * the scanner did not follow: it does when both are bullet lists with the same bullet).
 */
export type Continuation = "yes" | "no" | "check";

/** A range of the text left to micromark: whole lines, from a line where a block starts. */
export interface Region {
  /** Offset of its first character (a line start). */
  readonly start: number;
  /** 1-based line of that character. */
  readonly line: number;
  /** Offset just after it (a line start, or the end of the text). */
  end: number;
}

/** Items of a top-level list left to micromark, and where they go among the others. */
export interface ItemRegion extends Region {
  /** Index in the list's children where micromark's items go. */
  readonly index: number;
}

/** A top-level list the scanner built, with the items it left to micromark. */
export interface TopLevelList {
  /** The list, with the items the scanner built. */
  readonly node: List;
  /** The items it left to micromark, in order. */
  readonly regions: ItemRegion[];
  /** Whether a region cut into it: its next item starts a new part of the list. */
  sealed?: boolean;
}

/** One top-level piece of the scanned text. */
export type ScannedEntry =
  | { readonly kind: "node"; readonly node: RootContent; readonly continues: Continuation }
  | { readonly kind: "list"; readonly list: TopLevelList; readonly continues: Continuation }
  | { readonly kind: "region"; readonly region: Region; readonly continues: Continuation };

/** What {@link scanBlocks} found. */
export interface ScannedBlocks {
  /** The top-level pieces in order. */
  readonly entries: readonly ScannedEntry[];
  /** How many task items the scanner built: each keeps its checkbox (see `scannedCheckbox`). */
  readonly checkboxCount: number;
}
