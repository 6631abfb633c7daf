import { type Diagnostic, formatDiagnosticsMessage } from "./diagnostic.js";
import { LoopError } from "./loop-error.js";

const marker = "loop.error.DiagnosticsError";
const symbol = Symbol.for(marker);

/** Options of every error that reports problems found in an input document. */
export interface DiagnosticsErrorOptions {
  /** Every problem found, each located as precisely as the input allows. At least one. */
  readonly issues: readonly Diagnostic[];
  /** The document's file name or path, used in messages (`plan.md:12:3 …`). */
  readonly file?: string | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * Base of the errors that report problems in an input document (a plan, a config, a
 * prd.json): it carries the full list of {@link Diagnostic}s, and its message lists them
 * all as `file:line:column key.path: message`.
 */
export class DiagnosticsError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** Every problem found. */
  readonly issues: readonly Diagnostic[];
  /** The document's file name or path, when the caller gave one. */
  readonly file: string | undefined;

  /**
   * @param options - the problems, file and cause.
   * @param summary - the message's first line, for example `Invalid config`.
   * @param name - the subclass name.
   * @param code - the subclass's stable code.
   */
  constructor(options: DiagnosticsErrorOptions, summary: string, name: string, code: string) {
    super(
      {
        message: formatDiagnosticsMessage(summary, options.issues, options.file),
        cause: options.cause,
      },
      name,
      code,
    );
    this.issues = options.issues;
    this.file = options.file;
  }

  /** Whether `error` is a {@link DiagnosticsError} of any subclass, from any copy of the package. */
  static override isInstance(error: unknown): error is DiagnosticsError {
    return LoopError.hasMarker(error, marker);
  }
}
