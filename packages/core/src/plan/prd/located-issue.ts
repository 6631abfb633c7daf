import type { Diagnostic } from "../../errors/diagnostic.js";
import { lineColumnAt } from "../../errors/line-column.js";

/** A key path inside a JSON document: property names and 0-based array indexes. */
export type JsonPath = readonly (string | number)[];

/** A problem found in a JSON document, located by character offset. */
export interface LocatedIssue {
  /** What is wrong, without the path (the diagnostic prints it). */
  readonly message: string;
  /** Key path of the offending value; `[]` for the document as a whole. */
  readonly path: JsonPath;
  /** 0-based offset of the offending characters in the document. */
  readonly offset: number;
}

/**
 * Converts located issues to {@link Diagnostic}s with 1-based line and column, in
 * document order (issues at the same offset keep their order).
 */
export function toDiagnostics(text: string, issues: readonly LocatedIssue[]): Diagnostic[] {
  return [...issues]
    .sort((left, right) => left.offset - right.offset)
    .map((issue) => {
      const { line, column } = lineColumnAt(text, issue.offset);
      return { message: issue.message, path: issue.path, line, column };
    });
}
