import { FenceTracker, type OpenFence } from "./markdown-input.js";
import { splitLines } from "./text-lines.js";
import type { TextRange } from "./text-mask.js";

/**
 * How much of an answer `analyzeResponse` reads, in UTF-16 code units (64 KiB of ASCII): the
 * end of the answer, where the agent's conclusion and its status block are. The status block
 * itself is found in the whole answer.
 */
export const MAX_ANALYSED_LENGTH = 65_536;

/** The part of an answer that is analysed, and what is known where it starts. */
export interface AnalysedWindow {
  /** Offset of the part's first character in the answer: 0, or the start of a line. */
  readonly start: number;
  /** The part itself. */
  readonly text: string;
  /** The fence open where the part starts, when it starts inside fenced code. */
  readonly openFence: OpenFence | null;
}

/**
 * The last {@link MAX_ANALYSED_LENGTH} characters of an answer, from the first line that starts
 * in them (or from the cut, when they hold no line break).
 *
 * @param text - the whole answer.
 * @returns the part to analyse.
 */
export function analysedWindow(text: string): AnalysedWindow {
  if (text.length <= MAX_ANALYSED_LENGTH) return { start: 0, text, openFence: null };
  const cut = text.length - MAX_ANALYSED_LENGTH;
  let start = cut;
  for (let index = cut; index < text.length; index += 1) {
    const previous = text.charCodeAt(index - 1);
    if (previous === 10 || (previous === 13 && text.charCodeAt(index) !== 10)) {
      start = index;
      break;
    }
  }
  const tracker = new FenceTracker();
  for (const line of splitLines(text.slice(0, start))) tracker.read(line.text);
  return { start, text: text.slice(start), openFence: tracker.open };
}

/**
 * Ranges of the whole answer moved into the analysed part: shifted, cut to it, empty ones left
 * out.
 *
 * @param ranges - ranges of the whole answer.
 * @param window - the analysed part.
 * @returns the ranges, as offsets into the part.
 */
export function rangesInWindow(ranges: readonly TextRange[], window: AnalysedWindow): TextRange[] {
  const moved: TextRange[] = [];
  for (const range of ranges) {
    const start = Math.max(0, range.start - window.start);
    const end = Math.min(window.text.length, range.end - window.start);
    if (end > start) moved.push({ start, end });
  }
  return moved;
}
