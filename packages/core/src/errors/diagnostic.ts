/**
 * One problem found in an input document, located as precisely as the input allows.
 * Lines and columns are 1-based, as editors show them.
 */
export interface Diagnostic {
  /** What is wrong and, where possible, what would be valid. */
  readonly message: string;
  /** 1-based line of the problem, when known. */
  readonly line?: number;
  /** 1-based column of the problem, when known. */
  readonly column?: number;
  /** Key path of the problem inside a structured document (config keys, JSON path). */
  readonly path?: readonly (string | number)[];
}

/** Renders a key path as `a.b[2].c`. */
export function formatKeyPath(path: readonly (string | number)[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? segment : `.${segment}`;
  }
  return text;
}

/**
 * Renders a diagnostic as `file:line:column key.path: message`, leaving out the parts
 * that are unknown.
 */
export function formatDiagnostic(diagnostic: Diagnostic, file?: string): string {
  let where = file ?? "";
  if (diagnostic.line !== undefined) {
    where += `${where === "" ? "" : ":"}${diagnostic.line}`;
    if (diagnostic.column !== undefined) where += `:${diagnostic.column}`;
  }
  const path =
    diagnostic.path !== undefined && diagnostic.path.length > 0
      ? `${formatKeyPath(diagnostic.path)}: `
      : "";
  return `${where === "" ? "" : `${where} `}${path}${diagnostic.message}`;
}

/**
 * Builds the message of an error that carries diagnostics: a summary line followed by
 * one indented line per diagnostic.
 */
export function formatDiagnosticsMessage(
  summary: string,
  diagnostics: readonly Diagnostic[],
  file?: string,
): string {
  const count = diagnostics.length === 1 ? "1 problem" : `${diagnostics.length} problems`;
  const lines = diagnostics.map((diagnostic) => `  ${formatDiagnostic(diagnostic, file)}`);
  return [`${summary} (${count}):`, ...lines].join("\n");
}
