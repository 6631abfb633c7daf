import type { Diagnostic } from "../errors/diagnostic.js";
import { DiagnosticsError } from "../errors/diagnostics-error.js";
import { LoopError } from "../errors/loop-error.js";
import type { StateDocumentKey } from "./state-store.js";

const marker = "loop.error.StateValidationError";
const symbol = Symbol.for(marker);

/** Options of {@link StateValidationError}. */
export interface StateValidationErrorOptions {
  /** Every problem found, each with its key path (`loop_metadata.iterations`). At least one. */
  readonly issues: readonly Diagnostic[];
  /** The document: `loop_state` (default) or `loop_metrics`. */
  readonly document?: StateDocumentKey | undefined;
  /** The terminal whose document it is, when known; named in the message. */
  readonly terminalId?: string | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * A state document that does not match its schema, refused before it was written (or, on
 * read, a document written by a newer, unsupported schema version). Lists every problem with
 * its key path: `loop_state.json completion_indicators: expected an integer ≥ 0, got -1`.
 * Code: `STATE_VALIDATION_ERROR`.
 */
export class StateValidationError extends DiagnosticsError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The document that is invalid. */
  readonly document: StateDocumentKey;
  /** The terminal whose document it is, when known. */
  readonly terminalId: string | undefined;

  /** @param options - the problems, the document, the terminal and the cause. */
  constructor(options: StateValidationErrorOptions) {
    const document = options.document ?? "loop_state";
    const terminal = options.terminalId === undefined ? "" : ` of terminal "${options.terminalId}"`;
    super(
      { issues: options.issues, file: `${document}.json`, cause: options.cause },
      `Invalid ${document}${terminal}`,
      "StateValidationError",
      "STATE_VALIDATION_ERROR",
    );
    this.document = document;
    this.terminalId = options.terminalId;
  }

  /** Whether `error` is a {@link StateValidationError}, from any copy of the package. */
  static override isInstance(error: unknown): error is StateValidationError {
    return LoopError.hasMarker(error, marker);
  }
}
