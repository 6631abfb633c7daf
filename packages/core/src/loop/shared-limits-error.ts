import { LoopError, type LoopErrorOptions } from "../errors/loop-error.js";

const marker = "loop.error.SharedLimitsError";
const symbol = Symbol.for(marker);

/**
 * The shared limits (`RunLoopOptions.sharedLimits`) could not be used: the implementation kept
 * failing (a database out of reach) past the engine's retries, or answered what its contract
 * does not allow. The loop stops with `limits_error` rather than make a call it could not
 * claim. Code: `SHARED_LIMITS_ERROR`; the last failure is the `cause`.
 */
export class SharedLimitsError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** @param options - what failed, and the underlying error. */
  constructor(options: LoopErrorOptions) {
    super(options, "SharedLimitsError", "SHARED_LIMITS_ERROR");
  }

  /** Whether `error` is a {@link SharedLimitsError}, from any copy of the package. */
  static override isInstance(error: unknown): error is SharedLimitsError {
    return LoopError.hasMarker(error, marker);
  }
}
