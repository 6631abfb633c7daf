import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { findCodeSpans } from "./code-spans.js";
import { locateStatusBlocks } from "./locate-status-blocks.js";
import { splitMarkdownChunks } from "./markdown-chunks.js";
import { MAX_PARSED_LINE_LENGTH, type OpenFence, prepareMarkdownInput } from "./markdown-input.js";
import { plainParagraphTree } from "./plain-paragraphs.js";
import { introducesRecords, isCommitLine, RecordSections } from "./quoted-records.js";
import { type ProseSentence, splitSentences } from "./sentences.js";
import { blankRanges, keepRanges, type TextRange } from "./text-mask.js";
import { findToolOutputLines, findToolTags } from "./tool-output.js";

/**
 * The agent's own words in an answer: everything but code, quotes, tool output and status
 * blocks. Offsets into it are offsets into the answer.
 */
export interface Prose {
  /** The answer with every character that is not prose replaced by a space (line breaks kept). */
  readonly text: string;
  /** The prose split into sentences, in order. */
  readonly sentences: readonly ProseSentence[];
}

/** mdast nodes whose whole content is someone else's words or a machine's: never prose. */
const NOT_PROSE = new Set<Nodes["type"]>(["code", "blockquote", "definition", "thematicBreak"]);

/** mdast nodes that are one block of prose (their inline code excepted). */
const PROSE_BLOCKS = new Set<Nodes["type"]>(["paragraph", "heading", "html", "tableCell"]);

/** One block of prose, and whether it is in a quoted record (see `isQuotedRecord`). */
interface ProseBlock extends TextRange {
  readonly quoted: boolean;
}

/** What is known of the quoted records around the chunks, which are read in order. */
interface RecordContext {
  /** The top-level headings open, and whether they open a section of records. */
  readonly sections: RecordSections;
  /**
   * Whether the last top-level block read introduces records ("Recent commits:") or is a list
   * of them, which the next list continues.
   */
  introduced: boolean;
}

/** Where the prose of a text is found, as it is collected. */
interface ProseCollector {
  /** The prose blocks found so far. */
  readonly blocks: ProseBlock[];
  /** The inline code spans inside them. */
  readonly inlineCode: TextRange[];
  /** The offset of the parsed chunk in the whole text. */
  readonly offset: number;
  /** The whole text as parsed (markup as written), for the words of headings and list items. */
  readonly source: string;
  /** The records around the chunk, carried from one chunk to the next. */
  readonly records: RecordContext;
}

/** A node's range in the whole text, when the parser recorded it. */
function nodeRange(node: Nodes, offset: number): TextRange | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined
    ? null
    : { start: start + offset, end: end + offset };
}

/** The inline code spans inside a prose block. */
function collectInlineCode(node: Nodes, collector: ProseCollector): void {
  if (node.type === "inlineCode") {
    const range = nodeRange(node, collector.offset);
    if (range !== null) collector.inlineCode.push(range);
    return;
  }
  if ("children" in node) for (const child of node.children) collectInlineCode(child, collector);
}

/** A node's first or last line as written, at most {@link MAX_PARSED_LINE_LENGTH} characters. */
function nodeLine(node: Nodes, collector: ProseCollector, which: "first" | "last"): string {
  const range = nodeRange(node, collector.offset);
  if (range === null) return "";
  const { source } = collector;
  const isBreak = (index: number): boolean =>
    source.charCodeAt(index) === 10 || source.charCodeAt(index) === 13;
  if (which === "first") {
    let end = range.start;
    const limit = Math.min(range.end, range.start + MAX_PARSED_LINE_LENGTH);
    while (end < limit && !isBreak(end)) end += 1;
    return source.slice(range.start, end);
  }
  let start = range.end;
  const limit = Math.max(range.start, range.end - MAX_PARSED_LINE_LENGTH);
  while (start > limit && !isBreak(start - 1)) start -= 1;
  return source.slice(start, range.end);
}

/**
 * Whether a node is a quoted record: a list introduced as records (the block before it
 * names a changelog or commits and ends in `:`), a top-level list in a section of records (under
 * `## Changelog`, `## [1.2.0]`, `### Added` below them), or a list item that is a commit line.
 */
function isQuotedRecord(
  node: Nodes,
  parent: Nodes,
  introduced: boolean,
  collector: ProseCollector,
): boolean {
  if (node.type === "list") {
    return introduced || (parent.type === "root" && collector.records.sections.inRecords);
  }
  return node.type === "listItem" && isCommitLine(nodeLine(node, collector, "first"));
}

/** The prose blocks of a tree and the inline code inside them. */
function collectProseBlocks(node: Nodes, collector: ProseCollector, quoted: boolean): void {
  if (NOT_PROSE.has(node.type)) return;
  if (PROSE_BLOCKS.has(node.type)) {
    const range = nodeRange(node, collector.offset);
    if (range !== null) collector.blocks.push({ ...range, quoted });
    collectInlineCode(node, collector);
    return;
  }
  if (!("children" in node)) return;
  const top = node.type === "root";
  let introduced = top && collector.records.introduced;
  for (const child of node.children) {
    if (top && child.type === "heading") {
      collector.records.sections.enter(child.depth, nodeLine(child, collector, "first"));
    }
    const childQuoted = quoted || isQuotedRecord(child, node, introduced, collector);
    collectProseBlocks(child, collector, childQuoted);
    // A list right after a quoted one continues it: a long list is cut at a chunk boundary.
    introduced =
      (child.type === "paragraph" && introducesRecords(nodeLine(child, collector, "last"))) ||
      (child.type === "list" && childQuoted);
  }
  if (top) collector.records.introduced = introduced;
}

/** What is known of an answer's text before its prose is looked for. */
export interface ProseContext {
  /** Regions that are not prose whatever they hold: status blocks, tool output tags. */
  readonly excluded?: readonly TextRange[];
  /** The fence open where the text starts, when the text is the end of a longer answer. */
  readonly openFence?: OpenFence | null;
  /**
   * Parses one chunk of the parser's copy into its mdast tree. By default a chunk of plain
   * paragraphs is read by `plainParagraphTree` and any other by mdast-util-from-markdown; the
   * identity tests pass `fromMarkdown` itself, to compare.
   */
  readonly parseChunk?: ((source: string) => Nodes) | undefined;
}

/** A chunk's tree: plain paragraphs read directly, anything else by mdast-util-from-markdown. */
function parseChunk(source: string): Nodes {
  return plainParagraphTree(source) ?? fromMarkdown(source);
}

/** The last prose block that starts at or before an offset, from a sorted list. */
function blockAt(blocks: readonly ProseBlock[], offset: number): ProseBlock | undefined {
  let low = 0;
  let high = blocks.length - 1;
  let found: ProseBlock | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const block = blocks[middle];
    if (block === undefined) break;
    if (block.start <= offset) {
      found = block;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * The tails of long lines that belong to prose: those whose line's parsed part ends inside a
 * prose block. Their inline code is found here, since the parser did not see them.
 */
function proseTails(
  parsed: string,
  tails: readonly TextRange[],
  blocks: readonly ProseBlock[],
  inlineCode: TextRange[],
): ProseBlock[] {
  const sorted = [...blocks].sort((left, right) => left.start - right.start);
  const prose: ProseBlock[] = [];
  for (const tail of tails) {
    const lineStart = tail.start - MAX_PARSED_LINE_LENGTH;
    let last = tail.start - 1;
    while (last > lineStart && /\s/.test(parsed.charAt(last))) last -= 1;
    const block = blockAt(sorted, last);
    if (block === undefined || block.end <= last) continue;
    prose.push({ ...tail, quoted: block.quoted });
    inlineCode.push(...findCodeSpans(parsed, tail.start, tail.end));
  }
  return prose;
}

/**
 * Separates the agent's prose from everything else in an answer. Not prose:
 * - the regions the caller excludes (status blocks and tool tags; by default those of the
 *   text itself), so the `RECOMMENDATION` line never counts as a statement;
 * - tool output: `<tool_result>`, `<function_results>` and similar tagged regions, transcript
 *   dumps (`$ npm test` and the lines after it up to a blank line, Claude Code's `⎿` output),
 *   and lines only test runners print (`PASS src/a.test.ts`, `Tests: 3 passed`, stack frames);
 * - fenced and indented code blocks, inline code, block quotes and link definitions;
 * - text nested in more than 16 block quotes and list items on one line.
 *
 * Quoted records are prose, but their sentences are marked `quoted`: they record work (a
 * changelog's entries, commit messages) and are not the agent's statement about the job now.
 * They are the lists introduced as records (the paragraph before names a changelog, release
 * notes, commits or a git log and ends in `:`), the top-level lists of a section whose heading
 * names one or a release (`## Changelog`, `## [1.2.0] - 2026-01-15`, and its `### Added`), and
 * list items that start with a commit id (`- a1b2c3d Fix the parser`).
 *
 * The markdown is prepared (see `prepareMarkdownInput`) and parsed chunk by chunk (see
 * `splitMarkdownChunks`), in time linear in the length of the text whatever its shape.
 *
 * @param text - the agent's answer, or the part of it to analyse.
 * @param context - what is known before: excluded regions, a fence open at the start.
 * @returns the prose mask and its sentences.
 */
export function extractProse(text: string, context: ProseContext = {}): Prose {
  const excluded = context.excluded ?? [...locateStatusBlocks(text), ...findToolTags(text)];
  // micromark skips a byte order mark and would count offsets without it: blank it instead.
  const parsed = blankRanges(text, excluded).replace(/^\uFEFF+/, (marks) =>
    " ".repeat(marks.length),
  );
  const input = prepareMarkdownInput(parsed, context.openFence ?? null);
  const blocks: ProseBlock[] = [];
  const inlineCode: TextRange[] = [];
  const records: RecordContext = { sections: new RecordSections(), introduced: false };
  const parse = context.parseChunk ?? parseChunk;
  for (const chunk of splitMarkdownChunks(input.text)) {
    const source = input.text.slice(chunk.start, chunk.end);
    if (!/\S/.test(source)) continue;
    const collector = { blocks, inlineCode, offset: chunk.start, source: parsed, records };
    collectProseBlocks(parse(source), collector, false);
  }
  const tails = proseTails(parsed, input.tails, blocks, inlineCode);
  const proseBlocks = [...blocks, ...tails].sort((left, right) => left.start - right.start);
  const proseText = blankRanges(keepRanges(parsed, proseBlocks), [
    ...inlineCode,
    ...findToolOutputLines(parsed),
  ]);
  const sentences = proseBlocks.flatMap((block, index) =>
    splitSentences(proseText, block, index, block.quoted),
  );
  return { text: proseText, sentences };
}
