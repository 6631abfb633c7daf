/**
 * Markdown helpers that put untrusted text (task titles, questions, failures) into a prompt
 * literally and outside its prose: block quotes and code spans are neither instructions to
 * the agent nor, when the agent echoes the prompt, statements `analyzeResponse` reads (a
 * quoted `---RALPH_STATUS---` block is no block, a quoted "all tasks are complete" no
 * completion statement).
 */

/** Line breaks as the markdown parser and `analyzeResponse` see them. */
const LINE_BREAK = /\r\n|\n|\r/;

/**
 * `text` on one line: every run of white space (line breaks included) made one space, ends
 * trimmed.
 *
 * @param text - any text.
 * @returns the text on one line.
 */
export function singleLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * `text` as a block quote: every line prefixed with `> ` (a blank line with `>`), leading and
 * trailing blank lines and trailing spaces removed.
 *
 * @param text - any text, several lines allowed.
 * @returns the quote, without a final line break; `""` when `text` is blank.
 */
export function blockQuote(text: string): string {
  const lines = text.split(LINE_BREAK).map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line === "" ? ">" : `> ${line}`)).join("\n");
}

/**
 * Items as a quoted bullet list, each on one line ({@link singleLine}); blank items are left
 * out.
 *
 * @param items - any texts.
 * @returns the list, without a final line break; `""` when no item has text.
 */
export function quotedList(items: readonly string[]): string {
  return items
    .map(singleLine)
    .filter((item) => item !== "")
    .map((item) => `> - ${item}`)
    .join("\n");
}

/**
 * `text` as a code span, on one line, with enough backticks that none inside ends it.
 *
 * @param text - any text.
 * @returns the code span, e.g. `` `TASK-001` `` or ``` `` a`b `` ```.
 */
export function codeSpan(text: string): string {
  const content = singleLine(text);
  const longestRun = (content.match(/`+/g) ?? []).reduce(
    (longest, run) => Math.max(longest, run.length),
    0,
  );
  const fence = "`".repeat(longestRun + 1);
  const padding = content.startsWith("`") || content.endsWith("`") ? " " : "";
  return `${fence}${padding}${content}${padding}${fence}`;
}
