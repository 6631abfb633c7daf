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
  /**
   * Whether the sentence is in a quoted record the answer lists (a changelog's entries, a
   * commit list, see `extractProse`): prose, but not the agent's statement about the job now.
   */
  readonly quoted: boolean;
}

/** Characters whose run ends a sentence. */
const SENTENCE_PUNCTUATION = ".!?";

/** What may follow that run and still belong to the sentence: closing quotes, brackets, markup. */
const SENTENCE_CLOSERS = "\"'\u201d\u2019)]*_~";

/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx)$/i;

/** Longer than any {@link ABBREVIATION} with the character before it. */
const ABBREVIATION_WINDOW = 8;

/** Whether a character is one that `\s` matches. */
function isSpace(character: string): boolean {
  return character !== "" && character.trim() === "";
}

/**
 * The sentence ends of one line, as offsets just after each end: a run of `.`, `!` or `?`, the
 * closing quotes, brackets or markup after it, then a space or the end of the line. A full
 * stop after an abbreviation (`e.g.`) is no end. One pass over the line: a run that is not
 * followed by a space is skipped whole, where a regex would retry inside it (quadratic on
 * `!!!!…x`).
 */
function sentenceEnds(line: string): number[] {
  const ends: number[] = [];
  let index = 0;
  while (index < line.length) {
    if (!SENTENCE_PUNCTUATION.includes(line.charAt(index))) {
      index += 1;
      continue;
    }
    const runStart = index;
    while (index < line.length && SENTENCE_PUNCTUATION.includes(line.charAt(index))) index += 1;
    while (index < line.length && SENTENCE_CLOSERS.includes(line.charAt(index))) index += 1;
    if (index < line.length && !isSpace(line.charAt(index))) continue;
    const before = line.slice(Math.max(0, runStart - ABBREVIATION_WINDOW), runStart);
    if (line.charAt(runStart) === "." && ABBREVIATION.test(before)) continue;
    ends.push(index);
  }
  return ends;
}

/** Removes `_` runs at word edges (emphasis), keeping those inside words (`snake_case`). */
function removeEdgeUnderscores(text: string): string {
  let result = "";
  let index = 0;
  while (index < text.length) {
    if (text.charCodeAt(index) !== 95) {
      const next = text.indexOf("_", index);
      const end = next < 0 ? text.length : next;
      result += text.slice(index, end);
      index = end;
      continue;
    }
    let runEnd = index;
    while (runEnd < text.length && text.charCodeAt(runEnd) === 95) runEnd += 1;
    const atStart = index === 0 || !isWordCharacter(text.charCodeAt(index - 1));
    const atEnd = runEnd === text.length || !isWordCharacter(text.charCodeAt(runEnd));
    if (!atStart && !atEnd) result += text.slice(index, runEnd);
    index = runEnd;
  }
  return result;
}

/** Whether a UTF-16 code unit is one that `\w` matches: an ASCII letter, digit or `_`. */
function isWordCharacter(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95
  );
}

/**
 * Prepares a sentence for matching: straight quotes, no emphasis markup (`*`, `~`, `_` at word
 * edges), no heading marks, single spaces.
 *
 * @param raw - the sentence as written.
 * @returns the normalised sentence, trimmed.
 */
export function normalizeSentence(raw: string): string {
  return removeEdgeUnderscores(
    raw
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/[\u201c\u201d]/g, '"')
      .replace(/[*~]+/g, ""),
  )
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
 * @param quoted - whether the block is in a quoted record, recorded on each sentence.
 * @returns the block's non-empty sentences in order, with offsets into the answer.
 */
export function splitSentences(
  prose: string,
  block: TextRange,
  paragraph: number,
  quoted = false,
): ProseSentence[] {
  const sentences: ProseSentence[] = [];
  const push = (start: number, end: number): void => {
    const raw = prose.slice(start, end);
    const text = normalizeSentence(raw);
    if (text === "" || !/[\p{L}\p{N}]/u.test(text)) return;
    const leading = raw.length - raw.trimStart().length;
    const trailing = raw.length - raw.trimEnd().length;
    sentences.push({ text, start: start + leading, end: end - trailing, paragraph, quoted });
  };
  for (const line of splitLines(prose.slice(block.start, block.end))) {
    const lineStart = block.start + line.start;
    let sentenceStart = 0;
    for (const sentenceEnd of sentenceEnds(line.text)) {
      push(lineStart + sentenceStart, lineStart + sentenceEnd);
      sentenceStart = sentenceEnd;
    }
    push(lineStart + sentenceStart, lineStart + line.text.length);
  }
  return sentences;
}
