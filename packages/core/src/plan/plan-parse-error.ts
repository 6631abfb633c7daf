import { DiagnosticsError, type DiagnosticsErrorOptions } from "../errors/diagnostics-error.js";
import { LoopError } from "../errors/loop-error.js";

const marker = "loop.error.PlanParseError";
const symbol = Symbol.for(marker);

/**
 * A markdown plan that cannot be used as written: duplicate task ids, a malformed
 * RALPH_STATUS value, and the like. Lists every problem with its line and column.
 * Code: `PLAN_PARSE_ERROR`.
 */
export class PlanParseError extends DiagnosticsError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** @param options - the problems found, the plan's file name and the cause. */
  constructor(options: DiagnosticsErrorOptions) {
    super(options, "Invalid plan", "PlanParseError", "PLAN_PARSE_ERROR");
  }

  /** Whether `error` is a {@link PlanParseError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PlanParseError {
    return LoopError.hasMarker(error, marker);
  }
}
