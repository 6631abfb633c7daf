import { leadingMarkup, stripListMarker, unwrapMarkup } from "./markup.js";
import type { TextLine } from "./text-lines.js";

/** One `KEY: value` line of a status block, split and cleaned, with where its parts start. */
export interface FieldLine {
  /** The key as written, markup, list bullet and surrounding underscores removed. */
  readonly key: string;
  /** The value, trimmed, its wrapping markup removed. */
  readonly value: string;
  /** 0-based offset of the key's first character in the whole text. */
  readonly keyOffset: number;
  /** 0-based offset of the value in the whole text (just after the `:` when it is empty). */
  readonly valueOffset: number;
}

/** The text without the underscores it starts and ends with (a loop, not a regex: linear). */
function trimUnderscores(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 95) start += 1;
  while (end > start && text.charCodeAt(end - 1) === 95) end -= 1;
  return text.slice(start, end);
}

/**
 * Splits a status block line into key and value at its first `:`, tolerant of list bullets and
 * of markup around the key and the value (`**STATUS:** COMPLETE`, `` `EXIT_SIGNAL: true` ``).
 *
 * @param line - one line of the block.
 * @returns the field, or `null` when the line has no `:` or no key before it.
 */
export function splitFieldLine(line: TextLine): FieldLine | null {
  const content = stripListMarker(line.text);
  const contentOffset = line.start + line.text.length - content.length;
  const colon = content.indexOf(":");
  if (colon < 0) return null;
  const writtenKey = content.slice(0, colon);
  const key = trimUnderscores(writtenKey.replace(/[*`~]/g, "").trim()).trim();
  if (key === "") return null;
  // `**STATUS:** COMPLETE` and `` `STATUS: COMPLETE` ``: the key's markup closes in the value.
  const opening = leadingMarkup(writtenKey);
  const trimmedKey = writtenKey.trim();
  const openInKey =
    opening !== "" && !(trimmedKey.length > opening.length * 2 && trimmedKey.endsWith(opening));
  let value = content.slice(colon + 1).trim();
  if (openInKey && value.startsWith(opening)) value = value.slice(opening.length);
  else if (openInKey && value.endsWith(opening)) value = value.slice(0, -opening.length);
  value = unwrapMarkup(value);
  const valueIndex = value === "" ? -1 : content.indexOf(value, colon + 1);
  return {
    key,
    value,
    keyOffset: contentOffset + content.indexOf(key.charAt(0)),
    valueOffset: contentOffset + (valueIndex < 0 ? colon + 1 : valueIndex),
  };
}
