import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { excessiveNestingOffset, maximumJsonNesting } from "./json-nesting.js";
import { jsonSyntaxMessage } from "./json-syntax-message.js";
import type { LocatedIssue } from "./located-issue.js";

/** A syntactically valid JSON document: its syntax tree (with offsets) and its value. */
export interface JsonDocument {
  /** The document's text, exactly as given. */
  readonly text: string;
  /** The syntax tree; node offsets index into {@link JsonDocument.text}. */
  readonly root: Node;
  /** The document's value, as `JSON.parse` reads it. */
  readonly value: unknown;
}

/** The outcome of {@link parseJsonDocument}: the document, or the first syntax error. */
export type JsonDocumentResult =
  | { readonly ok: true; readonly document: JsonDocument }
  | { readonly ok: false; readonly issue: LocatedIssue };

const byteOrderMark = "\uFEFF";

/** How jsonc-parser reads a prd.json: strict JSON, no comments, no trailing commas. */
export const strictJsonOptions = {
  disallowComments: true,
  allowTrailingComma: false,
  allowEmptyContent: false,
} as const;

/**
 * Parses strict JSON (no comments, no trailing commas), keeping the syntax tree for
 * locations. A leading byte order mark is ignored. Nesting deeper than
 * {@link maximumJsonNesting} levels is refused before parsing. On invalid JSON it returns the first
 * syntax error, located at its offset; later errors are usually its echoes.
 */
export function parseJsonDocument(text: string): JsonDocumentResult {
  // A space in place of the byte order mark keeps every offset valid for `text`.
  const source = text.startsWith(byteOrderMark) ? ` ${text.slice(1)}` : text;
  const tooDeep = excessiveNestingOffset(source, maximumJsonNesting);
  if (tooDeep >= 0) {
    const message = `objects and arrays nest deeper than ${maximumJsonNesting} levels`;
    return { ok: false, issue: { message, path: [], offset: tooDeep } };
  }
  const errors: ParseError[] = [];
  const root = parseTree(source, errors, strictJsonOptions);
  const first = errors[0];
  if (first !== undefined || root === undefined) {
    const offset = first?.offset ?? 0;
    const codeName = first === undefined ? "ValueExpected" : printParseErrorCode(first.error);
    const message = jsonSyntaxMessage(codeName, source, offset, first?.length ?? 0);
    return { ok: false, issue: { message, path: [], offset } };
  }
  try {
    return { ok: true, document: { text, root, value: JSON.parse(source) } };
  } catch (error) {
    // A safety net: jsonc-parser accepted what JSON.parse rejects.
    const reason = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(reason)?.[1];
    return {
      ok: false,
      issue: { message: `invalid JSON: ${reason}`, path: [], offset: Number(position ?? 0) },
    };
  }
}
