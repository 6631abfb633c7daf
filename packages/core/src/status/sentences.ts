import { splitLines } from "./text-lines.js";
import type { TextRange } from "./text-mask.js";

/** One sentence of the agent's prose. */
export interface ProseSentence extends TextRange {
  /**
   * The sentence as read for matching: curly quotes straightened, emphasis markup and heading
   * marks removed, spaces collapsed. Inline code is already blank.
   */
  readonly text: string;
  /** Index of the paragraph (or heading, or list item paragraph) the sentence belongs to. */
  readonly paragraph: number;
}

/** The end of a sentence: `.`, `!` or `?` runs, then closing quotes, brackets or markup. */
const SENTENCE_END = /[.!?]+["'\u201d\u2019)\]*_~]*(?=\s|$)/g;

/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx)$/i;

/**
 * Prepares a sentence for matching: straight quotes, no emphasis markup (`*`, `~`, `_` at word
 * edges), no heading marks, single spaces.
 *
 * @param raw - the sentence as written.
 * @returns the normalised sentence, trimmed.
 */
export function normalizeSentence(raw: string): string {
  return raw
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[*~]+/g, "")
    .replace(/(^|\W)_+|_+(?=\W|$)/g, "$1")
    .replace(/^\s*#{1,6}\s+/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Splits one prose block into sentences. Every line ends a sentence (agents write one thought
 * per line far more often than they hard-wrap), and so does `.`, `!` or `?` before a space.
 *
 * @param prose - the prose mask of the whole answer (non-prose blanked).
 * @param block - the block's range in the mask.
 * @param paragraph - the block's index, recorded on each sentence.
 * @returns the block's non-empty sentences in order, with offsets into the answer.
 */
export function splitSentences(
  prose: string,
  block: TextRange,
  paragraph: number,
): ProseSentence[] {
  const sentences: ProseSentence[] = [];
  const push = (start: number, end: number): void => {
    const raw = prose.slice(start, end);
    const text = normalizeSentence(raw);
    if (text === "" || !/[\p{L}\p{N}]/u.test(text)) return;
    const leading = raw.length - raw.trimStart().length;
    const trailing = raw.length - raw.trimEnd().length;
    sentences.push({ text, start: start + leading, end: end - trailing, paragraph });
  };
  for (const line of splitLines(prose.slice(block.start, block.end))) {
    const lineStart = block.start + line.start;
    let sentenceStart = 0;
    const ends = new RegExp(SENTENCE_END.source, "g");
    for (let match = ends.exec(line.text); match !== null; match = ends.exec(line.text)) {
      if (match[0].startsWith(".") && ABBREVIATION.test(line.text.slice(0, match.index))) continue;
      const sentenceEnd = match.index + match[0].length;
      push(lineStart + sentenceStart, lineStart + sentenceEnd);
      sentenceStart = sentenceEnd;
    }
    push(lineStart + sentenceStart, lineStart + line.text.length);
  }
  return sentences;
}
