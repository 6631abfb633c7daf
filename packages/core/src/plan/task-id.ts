/** An id read from the start of a task item's text, and the title that follows it. */
export interface ExplicitTaskId {
  /** The id as written, for example `TASK-001`. */
  readonly id: string;
  /** The rest of the text after the id and its separator, trimmed. */
  readonly title: string;
}

/**
 * Reads the explicit id at the start of a task item's plain text (bold and code markers
 * already removed, so `**TASK-001**:` and `` `TASK-001` `` read like `TASK-001:`): what
 * `/^([A-Z][A-Z0-9_]*-[0-9]+)(?:\s*:|\s*[—–]|\s+-+(?=\s|$)|\.(?=\s|$)|(?=\s|$))/u` matches, read
 * without a regular expression (it runs for every task of a plan).
 *
 * The id is an uppercase word, `-` and digits (`TASK-001`, `STORY-7`, `BUG-12`,
 * `US_2-15`), followed by the end of the text, whitespace, or a separator (`:`, ` - `,
 * ` — `, ` – `, `. `) that is dropped from the title. Lowercase words (`task-1`, `pre-2020`)
 * are not ids.
 *
 * @param text - the item's plain text, whitespace collapsed.
 * @returns the id and the title, or `null` when the text does not start with an id.
 *
 * @example
 * ```ts
 * readExplicitTaskId("TASK-001: Design the schema"); // { id: "TASK-001", title: "Design the schema" }
 * readExplicitTaskId("Fix the login bug"); // null
 * ```
 */
export function readExplicitTaskId(text: string): ExplicitTaskId | null {
  const idEnd = explicitIdEnd(text);
  if (idEnd < 0) return null;
  const end = explicitIdSeparatorEnd(text, idEnd);
  if (end < 0) return null;
  return { id: text.slice(0, idEnd), title: explicitIdTitle(text, end) };
}

/**
 * The title after an id's separator: `text.slice(start).trim()`, in one slice (a title is
 * most of a task's text; `trim` would make a second string of it). The third step of
 * {@link readExplicitTaskId}.
 *
 * @param text - the item's plain text.
 * @param start - where the separator ends ({@link explicitIdSeparatorEnd}).
 */
export function explicitIdTitle(text: string, start: number): string {
  let from = start;
  let to = text.length;
  while (from < to && isWhitespaceCode(text.charCodeAt(from))) from += 1;
  while (to > from && isWhitespaceCode(text.charCodeAt(to - 1))) to -= 1;
  return text.slice(from, to);
}

/**
 * Where an id at the start of the text ends (`[A-Z][A-Z0-9_]*-[0-9]+`), or -1: the first
 * step of {@link readExplicitTaskId}, for callers that need the offsets, not an object.
 *
 * @param text - the item's plain text.
 */
export function explicitIdEnd(text: string): number {
  if (!isUppercase(text.charCodeAt(0))) return -1;
  let index = 1;
  for (let code = text.charCodeAt(index); isWordCode(code); code = text.charCodeAt(index)) {
    index += 1;
  }
  if (text.charCodeAt(index) !== 45) return -1;
  const digits = index + 1;
  index = digits;
  while (isDigit(text.charCodeAt(index))) index += 1;
  return index > digits ? index : -1;
}

/**
 * Where what may follow an id ends, or -1 when the id is not followed by one: `:` or `—`/`–`
 * after optional whitespace, dashes after whitespace and before whitespace or the end, `.`
 * before whitespace or the end, or (nothing taken) whitespace or the end. The second step of
 * {@link readExplicitTaskId}: the title is the text from there on, trimmed.
 *
 * @param text - the item's plain text.
 * @param from - where the id ends ({@link explicitIdEnd}).
 */
export function explicitIdSeparatorEnd(text: string, from: number): number {
  let index = from;
  while (index < text.length && isWhitespaceCode(text.charCodeAt(index))) index += 1;
  const code = text.charCodeAt(index);
  if (code === 58 || code === 0x2014 || code === 0x2013) return index + 1;
  if (index > from && code === 45) {
    let dashes = index;
    while (text.charCodeAt(dashes) === 45) dashes += 1;
    if (dashes === text.length || isWhitespaceCode(text.charCodeAt(dashes))) return dashes;
  }
  const next = text.charCodeAt(from);
  if (next === 46) {
    const after = from + 1;
    if (after === text.length || isWhitespaceCode(text.charCodeAt(after))) return after;
  }
  return from === text.length || isWhitespaceCode(next) ? from : -1;
}

function isUppercase(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isWordCode(code: number): boolean {
  return isUppercase(code) || isDigit(code) || code === 95;
}

/** Whether a code is whitespace to a regular expression's `\s` (and to `String#trim`). */
function isWhitespaceCode(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 5760 ||
    (code >= 8192 && code <= 8202) ||
    code === 8232 ||
    code === 8233 ||
    code === 8239 ||
    code === 8287 ||
    code === 12288 ||
    code === 65279
  );
}
