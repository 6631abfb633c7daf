import { DiagnosticsError, type DiagnosticsErrorOptions } from "../../errors/diagnostics-error.js";
import { LoopError } from "../../errors/loop-error.js";

const marker = "loop.error.PrdParseError";
const symbol = Symbol.for(marker);

/**
 * A prd.json that cannot be used: invalid JSON, a story without a title, a dependency on
 * an unknown story, and the like. Lists every problem with its JSON path and line:column.
 * Code: `PRD_PARSE_ERROR`.
 */
export class PrdParseError extends DiagnosticsError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** @param options - the problems found, the prd.json's file name and the cause. */
  constructor(options: DiagnosticsErrorOptions) {
    super(options, "Invalid prd.json", "PrdParseError", "PRD_PARSE_ERROR");
  }

  /** Whether `error` is a {@link PrdParseError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PrdParseError {
    return LoopError.hasMarker(error, marker);
  }
}
