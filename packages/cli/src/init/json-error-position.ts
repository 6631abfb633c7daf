import { errorMessage } from "../error-message.js";

/** A 1-based line and column in a text. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** The offset a `JSON.parse` message names (`… in JSON at position 12`), if any. */
function namedOffset(message: string): number | null {
  const match = /at position (\d+)/.exec(message);
  return match?.[1] === undefined ? null : Number(match[1]);
}

/** Whether `prefix` could still begin a valid JSON text: it parses, or fails only at its end. */
function isViablePrefix(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = errorMessage(error);
    return /end of JSON input/i.test(message) || namedOffset(message) === prefix.length;
  }
}

/**
 * The offset of the first character that cannot continue a valid JSON text: found by bisecting
 * over prefixes, for the messages of V8 that name no position (`Unexpected token '}', "…" is not
 * valid JSON`).
 */
function searchOffset(text: string): number {
  let good = 0;
  let bad = text.length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (isViablePrefix(text.slice(0, middle))) good = middle;
    else bad = middle;
  }
  return bad - 1;
}

/**
 * Where a `JSON.parse` error lies in `text`, as a line and column: the offset the message names
 * (`at position N`), else the first character that cannot continue a valid JSON text, else (the
 * text ended too early) its last character.
 *
 * @param text - the text that failed to parse.
 * @param error - the `SyntaxError` `JSON.parse` threw.
 * @returns the position, or `null` when `text` parses after all.
 */
export function jsonErrorPosition(text: string, error: unknown): TextPosition | null {
  const message = errorMessage(error);
  if (isViablePrefix(text) && !/end of JSON input/i.test(message)) return null;
  const named = namedOffset(message);
  const offset = Math.max(0, Math.min(named ?? searchOffset(text), text.length - 1));
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1) ?? "").length + 1 };
}
