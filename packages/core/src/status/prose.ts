import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { locateStatusBlocks } from "./locate-status-blocks.js";
import { splitMarkdownChunks } from "./markdown-chunks.js";
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

/** Where the prose of a text is found, as it is collected. */
interface ProseCollector {
  /** The prose blocks found so far. */
  readonly blocks: TextRange[];
  /** The inline code spans inside them. */
  readonly inlineCode: TextRange[];
  /** The offset of the parsed chunk in the whole text. */
  readonly offset: number;
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

/** The prose blocks of a tree and the inline code inside them. */
function collectProseBlocks(node: Nodes, collector: ProseCollector): void {
  if (NOT_PROSE.has(node.type)) return;
  if (PROSE_BLOCKS.has(node.type)) {
    const range = nodeRange(node, collector.offset);
    if (range !== null) collector.blocks.push(range);
    collectInlineCode(node, collector);
    return;
  }
  if ("children" in node) for (const child of node.children) collectProseBlocks(child, collector);
}

/**
 * Separates the agent's prose from everything else in an answer. Not prose:
 * - status blocks (closed ones, and an unclosed one to the end of the text), so the
 *   `RECOMMENDATION` line never counts as a statement;
 * - tool output: `<tool_result>`, `<function_results>` and similar tagged regions, transcript
 *   dumps (`$ npm test` and the lines after it up to a blank line, Claude Code's `⎿` output),
 *   and lines only test runners print (`PASS src/a.test.ts`, `Tests: 3 passed`, stack frames);
 * - fenced and indented code blocks, inline code, block quotes and link definitions.
 *
 * The markdown is parsed chunk by chunk (see `splitMarkdownChunks`), in linear time.
 *
 * @param text - the agent's answer.
 * @returns the prose mask and its sentences.
 */
export function extractProse(text: string): Prose {
  const excluded: TextRange[] = [...locateStatusBlocks(text), ...findToolTags(text)];
  // micromark skips a byte order mark and would count offsets without it: blank it instead.
  const parsed = blankRanges(text, excluded).replace(/^\uFEFF+/, (marks) =>
    " ".repeat(marks.length),
  );
  const blocks: TextRange[] = [];
  const inlineCode: TextRange[] = [];
  for (const chunk of splitMarkdownChunks(parsed)) {
    if (!/\S/.test(parsed.slice(chunk.start, chunk.end))) continue;
    const tree = fromMarkdown(parsed.slice(chunk.start, chunk.end));
    collectProseBlocks(tree, { blocks, inlineCode, offset: chunk.start });
  }
  const proseText = blankRanges(keepRanges(parsed, blocks), [
    ...inlineCode,
    ...findToolOutputLines(parsed),
  ]);
  const sentences = blocks.flatMap((block, index) => splitSentences(proseText, block, index));
  return { text: proseText, sentences };
}
