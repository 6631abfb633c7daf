import type { LineCounter, YAMLError } from "yaml";
import type { Diagnostic } from "../errors/diagnostic.js";

/** The key written at `offset`: the text up to the colon or the end of the line. */
function keyAt(text: string, offset: number): string {
  return (/^[^:\r\n]*/.exec(text.slice(offset))?.[0] ?? "").trim();
}

/** The message of one YAML error, reworded where yaml's own is unclear. */
function yamlMessage(error: YAMLError, text: string): string {
  if (error.code === "DUPLICATE_KEY") {
    const key = keyAt(text, error.pos[0]);
    return key === ""
      ? "duplicate key: each key may appear only once in a mapping"
      : `duplicate key "${key}": each key may appear only once in a mapping`;
  }
  return `YAML syntax error: ${error.message}`;
}

/**
 * Converts YAML syntax errors (including duplicate keys) into diagnostics with their
 * 1-based line and column.
 *
 * @param errors - the document's `errors`, parsed with `prettyErrors: false`.
 * @param text - the YAML source the offsets refer to.
 * @param lineCounter - the line counter the document was parsed with.
 */
export function yamlProblems(
  errors: readonly YAMLError[],
  text: string,
  lineCounter: LineCounter,
): Diagnostic[] {
  return errors.map((error) => {
    const position = lineCounter.linePos(error.pos[0]);
    return { message: yamlMessage(error, text), line: position.line, column: position.col };
  });
}
