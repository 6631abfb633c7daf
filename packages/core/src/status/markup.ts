/** A list bullet or ordered-list number at the start of a line, with its indentation. */
const LIST_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/;

/** A run of inline markup characters: emphasis, strong, code, strikethrough. */
const MARKUP_RUN = /^[*_`~]+/;

/**
 * Removes a list bullet (`-`, `*`, `+`) or an ordered-list number (`1.`, `2)`) and the
 * indentation before it from the start of a line.
 *
 * @param line - one line of text.
 * @returns the line without its list marker; unchanged when it has none.
 */
export function stripListMarker(line: string): string {
  return line.replace(LIST_MARKER, "");
}

/**
 * The run of markup characters (`*`, `_`, backtick, `~`) a text starts with, after spaces.
 *
 * @param text - any text.
 * @returns the run, or `""` when the text does not start with markup.
 */
export function leadingMarkup(text: string): string {
  return MARKUP_RUN.exec(text.trimStart())?.[0] ?? "";
}

/**
 * Removes markup that wraps a whole value: `**COMPLETE**`, `_true_`, `` `3` ``, `~~x~~`, also
 * nested (`**`x`**`). Markup inside the value (`use __init__ here`) is kept, and so is a run
 * that is not closed by the same run at the end.
 *
 * @param value - a value as written, spaces around it allowed.
 * @returns the value without its wrapping markup, trimmed.
 */
export function unwrapMarkup(value: string): string {
  let current = value.trim();
  for (;;) {
    const run = MARKUP_RUN.exec(current)?.[0] ?? "";
    if (run === "" || current.length <= run.length * 2 || !current.endsWith(run)) return current;
    current = current.slice(run.length, current.length - run.length).trim();
  }
}
