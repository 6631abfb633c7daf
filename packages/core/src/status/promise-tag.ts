/** The opening tag of the completion-promise convention of Claude Code's ralph-loop. */
const PROMISE_OPEN = /<promise>/gi;

/** Its closing tag. */
const PROMISE_CLOSE = /<\/promise>/gi;

/** One `<promise>TEXT</promise>` tag found in a text. */
interface PromiseTagMatch {
  readonly start: number;
  readonly end: number;
  readonly content: string;
}

/**
 * Every `<promise>…</promise>` tag of a text: each closing tag pairs with the last opening tag
 * before it that no earlier pair used. Linear in the length of the text.
 */
function promiseTagsIn(text: string): PromiseTagMatch[] {
  const openings = [...text.matchAll(PROMISE_OPEN)].map((match) => match.index);
  const tags: PromiseTagMatch[] = [];
  let nextOpening = 0;
  let pairedUpTo = 0;
  for (const closing of text.matchAll(PROMISE_CLOSE)) {
    let opening = -1;
    for (; nextOpening < openings.length; nextOpening += 1) {
      const candidate = openings[nextOpening] ?? -1;
      if (candidate >= closing.index) break;
      if (candidate >= pairedUpTo) opening = candidate;
    }
    if (opening < 0) continue;
    const end = closing.index + closing[0].length;
    tags.push({
      start: opening,
      end,
      content: text.slice(opening + "<promise>".length, closing.index),
    });
    pairedUpTo = end;
  }
  return tags;
}

/** Words that make a line around a tag an instruction about it, not the promise itself. */
const INSTRUCTION_WORDS =
  /\b(?:output|print|emit|say|write|respond|reply|include|return|type|signal|add|put|use|when|once|if|until|after|only|must|should)\b/i;

/** Characters a bare piece of a line may hold: spaces, list bullets and emphasis markup. */
function isBareCharacter(character: string): boolean {
  return "*_~+-".includes(character) || character.trim() === "";
}

/** A numbered-list marker (`1. `) that a bare piece may start with, after spaces. */
const NUMBERED_MARKER = /\s*\d{1,9}[.)]\s/y;

/** Whether a character ends a line. */
function isLineBreak(character: string): boolean {
  return character === "\n" || character === "\r";
}

/**
 * Answers, each in constant or amortised linear time, the questions that decide whether a tag
 * counts: whether the pieces of its line around it are bare, and what the previous non-blank
 * line is. Slicing and scanning the text for each tag instead is quadratic when one line
 * holds thousands of tags.
 */
class TagContext {
  /** For each offset, the offset of the next character that is not bare (`length` if none). */
  private readonly nextNotBare: Int32Array;
  /** For each offset, the offset of the last character before it that is not bare, or -1. */
  private readonly lastNotBare: Int32Array;

  constructor(private readonly prose: string) {
    const length = prose.length;
    this.nextNotBare = new Int32Array(length + 1);
    this.lastNotBare = new Int32Array(length + 1);
    this.nextNotBare[length] = length;
    for (let index = length - 1; index >= 0; index -= 1) {
      this.nextNotBare[index] = isBareCharacter(prose.charAt(index))
        ? (this.nextNotBare[index + 1] ?? length)
        : index;
    }
    this.lastNotBare[0] = -1;
    for (let index = 1; index <= length; index += 1) {
      this.lastNotBare[index] = isBareCharacter(prose.charAt(index - 1))
        ? (this.lastNotBare[index - 1] ?? -1)
        : index - 1;
    }
  }

  /** Where a bare piece starting at `start` may begin its bare part: after a numbered marker. */
  private afterNumberedMarker(start: number): number {
    NUMBERED_MARKER.lastIndex = start;
    const marker = NUMBERED_MARKER.exec(this.prose);
    return marker === null ? start : start + marker[0].length;
  }

  /** Whether `prose[start, end)` holds nothing but spaces, bullets and markup (see `isBare`). */
  isBare(start: number, end: number): boolean {
    if (start >= end) return true;
    if ((this.nextNotBare[start] ?? end) >= end) return true;
    const from = this.afterNumberedMarker(start);
    return from <= end && (this.nextNotBare[from] ?? end) >= end;
  }

  /** Whether the piece before `end` on its line, from `lineStart`, is bare. */
  isBareBefore(lineStart: number, end: number): boolean {
    if ((this.lastNotBare[end] ?? -1) < lineStart) return true;
    return this.isBare(lineStart, end);
  }

  /** The offset of the start of the line holding `offset`. */
  lineStart(offset: number): number {
    let index = offset;
    while (index > 0 && !isLineBreak(this.prose.charAt(index - 1))) index -= 1;
    return index;
  }

  /** The offset of the end of the line holding `offset` (its line break, or the end). */
  lineEnd(offset: number): number {
    let index = offset;
    while (index < this.prose.length && !isLineBreak(this.prose.charAt(index))) index += 1;
    return index;
  }

  /** The last non-blank line before `offset`, trimmed, or `""`. */
  previousNonBlankLine(offset: number): string {
    let last = offset - 1;
    while (last >= 0 && this.prose.charAt(last).trim() === "") last -= 1;
    if (last < 0) return "";
    return this.prose.slice(this.lineStart(last), this.lineEnd(last)).trim();
  }
}

/**
 * Finds the promise tags the agent actually made in its prose. A tag in prose counts when
 * - it stands alone on its line (only spaces, list bullets or emphasis beside it), unless the
 *   prose line before it ends in `:` and reads as an instruction ("When finished, output:"), or
 * - it ends the prose (only spaces or markup after it) and the text before it on its line
 *   is not an instruction ("All tasks are finished. <promise>DONE</promise>" counts,
 *   "When finished, output <promise>DONE</promise>" does not).
 * A tag inside a sentence ("output <promise>DONE</promise> when finished") is talk about the
 * convention, which an echoed prompt is full of, and never counts. Tags in code, quotes or tool
 * output are never seen: the caller passes the prose mask. Linear in the length of the prose.
 *
 * @param prose - the prose mask of the answer (see `extractProse`).
 * @returns the texts of the counted tags, spaces collapsed and trimmed, in order.
 */
export function findPromiseTags(prose: string): string[] {
  const promises: string[] = [];
  const tags = promiseTagsIn(prose);
  if (tags.length === 0) return promises;
  const context = new TagContext(prose);
  // The line last looked up: tags come in order, so each line is scanned once.
  let line = { start: 0, end: -1 };
  const lineOf = (offset: number) => {
    if (offset < line.start || offset > line.end) {
      line = { start: context.lineStart(offset), end: context.lineEnd(offset) };
    }
    return line;
  };
  for (const tag of tags) {
    const content = tag.content.replace(/\s+/g, " ").trim();
    if (content === "") continue;
    const lineStart = lineOf(tag.start).start;
    const lineEnd = lineOf(tag.end).end;
    if (context.isBareBefore(lineStart, tag.start) && context.isBare(tag.end, lineEnd)) {
      const previous = context.previousNonBlankLine(lineStart);
      const introduced = previous.endsWith(":") && INSTRUCTION_WORDS.test(previous);
      if (!introduced) promises.push(content);
    } else if (
      context.isBare(tag.end, prose.length) &&
      !INSTRUCTION_WORDS.test(prose.slice(lineStart, tag.start))
    ) {
      promises.push(content);
    }
  }
  return promises;
}
