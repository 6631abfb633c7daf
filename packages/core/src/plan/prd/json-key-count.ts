import { stringEnd } from "./json-string-end.js";

const COLON = 0x3a;

/** Whether a UTF-16 code is JSON whitespace: space, tab, line feed, carriage return. */
function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * How many object keys a valid JSON text writes: its strings followed by a `:`, repeated keys
 * each counted. Only meaningful for text `JSON.parse` accepts.
 *
 * @param text - valid JSON.
 */
export function countKeysWritten(text: string): number {
  let keys = 0;
  let index = text.indexOf('"');
  while (index >= 0) {
    const end = stringEnd(text, index);
    if (end < 0) break;
    let next = end + 1;
    while (isJsonWhitespace(text.charCodeAt(next))) next += 1;
    if (text.charCodeAt(next) === COLON) keys += 1;
    index = text.indexOf('"', next);
  }
  return keys;
}

/**
 * How many keys the objects of a parsed JSON value hold, nested ones included; `null` when its
 * objects and arrays nest deeper than `depthLimit` levels (as the text's brackets do). `JSON.parse`
 * keeps the last of repeated keys, so a text whose {@link countKeysWritten} is larger repeats
 * some key.
 *
 * @param value - what `JSON.parse` returned.
 * @param depthLimit - the deepest nesting counted; deeper is `null`.
 */
export function countKeysParsed(value: unknown, depthLimit: number): number | null {
  return countKeys(value, depthLimit, 1);
}

function countKeys(value: unknown, depthLimit: number, depth: number): number | null {
  if (typeof value !== "object" || value === null) return 0;
  if (depth > depthLimit) return null;
  let keys = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const nested = countKeys(item, depthLimit, depth + 1);
      if (nested === null) return null;
      keys += nested;
    }
    return keys;
  }
  // `for…in` allocates nothing; a parsed object has no enumerable inherited key (and one added
  // to Object.prototype would only make the counts differ: the locating parser then runs).
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const nested = countKeys(record[key], depthLimit, depth + 1);
    if (nested === null) return null;
    keys += 1 + nested;
  }
  return keys;
}
