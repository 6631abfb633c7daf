import { type Diagnostic, formatKeyPath } from "@loop/core";

/** One problem (or warning) `loop validate` reports, as its `--json` output holds it. */
export interface ValidationProblem {
  /** The file, as shown (relative to the project folder when inside it). */
  readonly file: string;
  /** 1-based line, `null` when the problem concerns the whole file. */
  readonly line: number | null;
  /** 1-based column, `null` when unknown. */
  readonly column: number | null;
  /** What is wrong and, where possible, what would be valid. */
  readonly message: string;
  /** The key path inside the document (`exit_policy.min_completion_indicators`, `stories[1].id`). */
  readonly keyPath?: string;
  /** The warning's stable code (`BREAKER_OPENS_BEFORE_TASK_SKIP`), for config warnings. */
  readonly code?: string;
}

/**
 * A problem of `file` from one of the SDK's diagnostics (`PlanParseError.issues`,
 * `ConfigError.issues`, `PrdParseError.issues`, a `ConfigWarning`).
 *
 * @param file - the file, as shown.
 * @param diagnostic - the SDK's diagnostic.
 */
export function problemFromDiagnostic(file: string, diagnostic: Diagnostic): ValidationProblem {
  const path = diagnostic.path !== undefined && diagnostic.path.length > 0 ? diagnostic.path : null;
  return {
    file,
    line: diagnostic.line ?? null,
    column: diagnostic.line === undefined ? null : (diagnostic.column ?? null),
    message: diagnostic.message,
    ...(path === null ? {} : { keyPath: formatKeyPath(path) }),
  };
}

/**
 * A problem of the whole file (not found, unreadable), with no position.
 *
 * @param file - the file, as shown.
 * @param message - what is wrong.
 */
export function fileProblem(file: string, message: string): ValidationProblem {
  return { file, line: null, column: null, message };
}
