/** An id read from the start of a task item's text, and the title that follows it. */
export interface ExplicitTaskId {
  /** The id as written, for example `TASK-001`. */
  readonly id: string;
  /** The rest of the text after the id and its separator, trimmed. */
  readonly title: string;
}

/**
 * An explicit id at the start of the text: an uppercase word (a letter, then letters,
 * digits or `_`), `-`, digits; then either the end, whitespace, or a separator that is not
 * part of the title: `:`, `—`/`–` (spaces optional), ` - ` (spaces required), or `.`
 * followed by whitespace.
 */
const explicitIdPattern =
  /^([A-Z][A-Z0-9_]*-[0-9]+)(?:\s*:|\s*[—–]|\s+-+(?=\s|$)|\.(?=\s|$)|(?=\s|$))/u;

/**
 * Reads the explicit id at the start of a task item's plain text (bold and code markers
 * already removed, so `**TASK-001**:` and `` `TASK-001` `` read like `TASK-001:`).
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
  const match = explicitIdPattern.exec(text);
  const id = match?.[1];
  if (match === null || id === undefined) return null;
  return { id, title: text.slice(match[0].length).trim() };
}
