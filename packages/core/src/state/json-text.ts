import type { Diagnostic } from "../errors/diagnostic.js";
import { lineColumnAt } from "../errors/line-column.js";
import { parseJsonDocument } from "../plan/prd/parse-json-document.js";

/** The outcome of {@link parseJsonText}. */
export type JsonTextResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: Diagnostic };

const byteOrderMark = "\uFEFF";

/**
 * Parses strict JSON. On invalid JSON returns the first syntax error, located at its line and
 * column (`JSON.parse` does the parsing; the slower, locating parser only runs on failure).
 * A leading byte order mark is ignored.
 *
 * @param text - the document or line.
 */
export function parseJsonText(text: string): JsonTextResult {
  const source = text.startsWith(byteOrderMark) ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch {
    const located = parseJsonDocument(text);
    if (located.ok) {
      // Both parsers normally agree; if the locating one accepts, use its value.
      return { ok: true, value: located.document.value };
    }
    const { line, column } = lineColumnAt(text, located.issue.offset);
    return {
      ok: false,
      problem: { message: `invalid JSON: ${located.issue.message}`, line, column },
    };
  }
}
