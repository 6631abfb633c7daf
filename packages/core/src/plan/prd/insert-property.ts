import type { Node } from "jsonc-parser";
import type { TextEdit } from "./text-edit.js";

/** Whether the character at `index` is JSON whitespace. */
function isJsonWhitespace(text: string, index: number): boolean {
  const character = text.charAt(index);
  return character === " " || character === "\t" || character === "\n" || character === "\r";
}

/**
 * The edit that adds `"key": value` as the last property of an object node, in the
 * object's own style: the new property is separated from the previous one by a copy of
 * the characters that separate the object's last two properties (comma, newline and
 * indentation, or whatever they are), and its key from its value by a copy of the last
 * property's `: `. An object with one property lends the whitespace before its key; an
 * empty object gets `"key": value` between its braces.
 *
 * @param text - the document.
 * @param object - an object node of `text`'s syntax tree.
 * @param key - the new property's name.
 * @param valueText - the new property's value, as JSON text.
 */
export function insertProperty(
  text: string,
  object: Node,
  key: string,
  valueText: string,
): TextEdit {
  const properties = object.children ?? [];
  const last = properties.at(-1);
  const lastKey = last?.children?.[0];
  const lastValue = last?.children?.[1];
  if (lastKey === undefined || lastValue === undefined) {
    return {
      offset: object.offset + 1,
      length: 0,
      content: `${JSON.stringify(key)}: ${valueText}`,
    };
  }
  const previousValue = properties.at(-2)?.children?.[1];
  let separator: string;
  if (previousValue === undefined) {
    let start = lastKey.offset;
    while (start > object.offset + 1 && isJsonWhitespace(text, start - 1)) start -= 1;
    separator = `,${text.slice(start, lastKey.offset)}`;
  } else {
    separator = text.slice(previousValue.offset + previousValue.length, lastKey.offset);
  }
  const colon = text.slice(lastKey.offset + lastKey.length, lastValue.offset);
  return {
    offset: lastValue.offset + lastValue.length,
    length: 0,
    content: `${separator}${JSON.stringify(key)}${colon}${valueText}`,
  };
}
