import type { Paragraph, Root } from "mdast";

/** A place in the source, as mdast positions give it. */
type Point = NonNullable<Paragraph["position"]>["start"];

/**
 * First characters (after up to three spaces) of a line that could open a block other than a
 * paragraph, or be a setext underline or a link definition, by UTF-16 code: `#` `>` `-` `+` `*`
 * `=` `_` `` ` `` `~` `<` `[`. A digit is looked at apart (`1.` and `1)` open ordered lists).
 */
const BLOCK_STARTS = new Set([35, 62, 45, 43, 42, 61, 95, 96, 126, 60, 91]);

const SPACE = 32;
const TAB = 9;
const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;
const BACKTICK = 96;

/** Whether the code is an ASCII digit. */
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Where the line that starts at `start` ends (before its line break). */
function lineEnd(source: string, start: number): number {
  let index = start;
  while (index < source.length) {
    const code = source.charCodeAt(index);
    if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
    index += 1;
  }
  return index;
}

/** Whether `source[start, end)` is only spaces and tabs (a blank line, to markdown). */
function isBlank(source: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 1) {
    const code = source.charCodeAt(index);
    if (code !== SPACE && code !== TAB) return false;
  }
  return true;
}

/**
 * Where the text of a non-blank line starts, when the line can only be a paragraph's line: at
 * most three spaces before it (no tab), no block start, and no backtick in the line (inline
 * code is looked for in the tree). `-1` when it could be anything else.
 */
function paragraphTextStart(source: string, start: number, end: number): number {
  let index = start;
  while (index < end && source.charCodeAt(index) === SPACE) index += 1;
  const first = source.charCodeAt(index);
  if (index - start > 3 || first === TAB || BLOCK_STARTS.has(first)) return -1;
  if (isDigit(first)) {
    let after = index;
    while (after < end && isDigit(source.charCodeAt(after))) after += 1;
    const next = source.charCodeAt(after);
    if (next === 46 || next === 41) return -1;
  }
  for (let at = index; at < end; at += 1) {
    if (source.charCodeAt(at) === BACKTICK) return -1;
  }
  return index;
}

/**
 * The tree mdast-util-from-markdown gives for markdown that holds only paragraphs of plain
 * lines and blank lines — the same blocks with the same positions (line, column, offset), the
 * paragraphs without their inline content, which holds no inline code — or `null` when a line
 * could be anything else: a heading, quote, list item, fence, HTML, thematic break, setext
 * underline, link definition or indented code, or a line with a backtick in it. Agents' answers
 * are mostly such prose, and reading it this way skips micromark's set-up and tokenizer; the
 * caller parses anything else. `plain-paragraphs.identity.test.ts` checks the trees are the same.
 *
 * A paragraph is a run of non-blank lines (blank: only spaces and tabs); it starts at its first
 * line's text (after its spaces) and ends at the end of its last line, trailing spaces
 * included. Lines end at `\n`, `\r\n` or a lone `\r`. A column counts UTF-16 code units from 1.
 *
 * @param source - markdown (a chunk of an agent's answer, prepared for the parser).
 * @returns the tree, or `null` when the source needs the markdown parser.
 */
export function plainParagraphTree(source: string): Root | null {
  const children: Paragraph[] = [];
  let open: Paragraph | null = null;
  let line = 1;
  let start = 0;
  for (;;) {
    const end = lineEnd(source, start);
    if (isBlank(source, start, end)) {
      open = null;
    } else {
      const textStart = paragraphTextStart(source, start, end);
      if (textStart < 0) return null;
      const last: Point = { line, column: end - start + 1, offset: end };
      if (open === null) {
        const first: Point = { line, column: textStart - start + 1, offset: textStart };
        open = { type: "paragraph", children: [], position: { start: first, end: last } };
        children.push(open);
      } else if (open.position !== undefined) {
        open.position.end = last;
      }
    }
    if (end === source.length) {
      const documentEnd: Point = { line, column: end - start + 1, offset: end };
      const documentStart: Point = { line: 1, column: 1, offset: 0 };
      return { type: "root", children, position: { start: documentStart, end: documentEnd } };
    }
    const crlf =
      source.charCodeAt(end) === CARRIAGE_RETURN && source.charCodeAt(end + 1) === LINE_FEED;
    start = end + (crlf ? 2 : 1);
    line += 1;
  }
}
