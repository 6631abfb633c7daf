import type { ListItem, Root } from "mdast";
import { parseFast } from "./fast-tree.js";
import { type LineTable, lineTable } from "./line-table.js";
import {
  type NeutralizedText,
  neutralizeLongParagraphs,
  restoreNeutralizedText,
} from "./long-paragraphs.js";
import type { ChunkSize, chunkStarts } from "./markdown-chunks.js";
import { parseAllWithMicromark } from "./micromark-chunks.js";
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

/**
 * A plan's markdown parsed into an mdast tree, with what editing needs to know. Treat it as
 * read-only: nodes may share position and point objects, and a paragraph's `children` may be
 * built when first read.
 */
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

/** A text ready to parse: split from its byte order mark, checked, long paragraphs neutralised. */
interface PreparedText {
  readonly bom: string;
  readonly body: string;
  readonly neutralized: NeutralizedText;
  /** The lines of the text to parse (the neutralised text's, which has the same lines). */
  readonly lines: LineTable;
}

/**
 * Parses markdown with GFM task-list items into an mdast tree, recording where each
 * checkbox's value lies, exactly as mdast-util-from-markdown (micromark) would, fast.
 *
 * A leading byte order mark is split off first, because micromark skips it and counts
 * offsets without it: positions in the tree are offsets into `body`. A text nesting block
 * quotes and list items deeper than {@link MAX_NESTING_DEPTH} is refused before it is parsed,
 * and in a paragraph longer than 4,000 characters emphasis and links are read as plain text
 * (see {@link neutralizeLongParagraphs}), which keeps every parse linear.
 *
 * The blocks a line scanner reads exactly (headings, paragraphs of plain text, code spans and
 * emphasis, list and task items, fenced code; see `scanBlocks`) are built directly; the
 * regions it leaves to micromark (links, HTML, block quotes, …) are parsed by micromark, in
 * chunks cut before top-level headings and bullet items (see {@link chunkStarts}), and put in
 * place. The tree is the one {@link parseMarkdownTreeReference} gives, which parses
 * everything with micromark; a text holding a link reference definition is parsed that way.
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
  const { bom, body, neutralized, lines } = prepare(markdown, options);
  const parsed = neutralized.text;
  const size = options?.chunkSize;
  // Neutralised text is put back into the tree's nodes after: only lists of the text as it is
  // may be read again later.
  const defer = parsed === body;
  const tree = parseFast(lines, size, defer) ?? parseAllWithMicromark(parsed, size);
  restoreNeutralizedText(tree.root, body, parsed, neutralized.ranges);
  return { root: tree.root, bom, body, checkboxes: tree.checkboxes };
}

/**
 * Parses markdown like {@link parseMarkdownTree}, with micromark only: the text in chunks
 * cut before its top-level headings and bullet items (see {@link chunkStarts}), whose trees
 * are joined, or whole. This is the reference the fast parse is tested against, and what
 * `pnpm bench` compares it with.
 *
 * @param markdown - the plan text.
 * @param options - the file name for errors, the chunk size.
 * @returns the tree, the byte order mark, the body and the checkboxes.
 * @throws {TypeError} when `markdown` is not a string.
 * @throws {PlanParseError} when the text nests deeper than {@link MAX_NESTING_DEPTH}.
 */
export function parseMarkdownTreeReference(
  markdown: string,
  options?: MarkdownTreeOptions | null,
): MarkdownTree {
  const { bom, body, neutralized } = prepare(markdown, options);
  const parsed = neutralized.text;
  const tree = parseAllWithMicromark(parsed, options?.chunkSize);
  restoreNeutralizedText(tree.root, body, parsed, neutralized.ranges);
  return { root: tree.root, bom, body, checkboxes: tree.checkboxes };
}

function prepare(markdown: string, options: MarkdownTreeOptions | null | undefined): PreparedText {
  if (typeof markdown !== "string") {
    throw new TypeError(`A plan must be markdown text (a string), got ${describe(markdown)}`);
  }
  let bomLength = 0;
  while (markdown.charCodeAt(bomLength) === 0xfeff) bomLength += 1;
  const bom = markdown.slice(0, bomLength);
  const body = markdown.slice(bomLength);
  const lines = lineTable(body);
  const tooDeep = findTooDeepNesting(body, lines);
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
  const neutralized = neutralizeLongParagraphs(body, lines);
  const parsed = neutralized.text === body ? lines : { ...lines, text: neutralized.text };
  return { bom, body, neutralized, lines: parsed };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}
