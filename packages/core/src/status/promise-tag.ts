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

/** Whether a piece of a line holds nothing but spaces, list bullets and emphasis markup. */
function isBare(text: string): boolean {
  return text.replace(/^\s*\d{1,9}[.)]\s/, "").replace(/[\s*_~+-]/g, "") === "";
}

/** The last non-blank line of a text, trimmed, or `""`. */
function lastNonBlankLine(text: string): string {
  const lines = text.split(/\r\n|\n|\r/);
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index]?.trim() ?? "";
    if (line !== "") return line;
  }
  return "";
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
 * output are never seen: the caller passes the prose mask.
 *
 * @param prose - the prose mask of the answer (see `extractProse`).
 * @returns the texts of the counted tags, spaces collapsed and trimmed, in order.
 */
export function findPromiseTags(prose: string): string[] {
  const promises: string[] = [];
  for (const tag of promiseTagsIn(prose)) {
    const content = tag.content.replace(/\s+/g, " ").trim();
    if (content === "") continue;
    const tagEnd = tag.end;
    const lineStart = Math.max(
      prose.lastIndexOf("\n", tag.start - 1),
      prose.lastIndexOf("\r", tag.start - 1),
    );
    const lineBreak = prose.slice(tagEnd).search(/[\r\n]/);
    const lineEnd = lineBreak < 0 ? prose.length : tagEnd + lineBreak;
    const before = prose.slice(lineStart + 1, tag.start);
    const after = prose.slice(tagEnd, lineEnd);
    if (isBare(before) && isBare(after)) {
      const previous = lastNonBlankLine(prose.slice(0, lineStart + 1));
      const introduced = previous.endsWith(":") && INSTRUCTION_WORDS.test(previous);
      if (!introduced) promises.push(content);
    } else if (isBare(prose.slice(tagEnd)) && !INSTRUCTION_WORDS.test(before)) {
      promises.push(content);
    }
  }
  return promises;
}
