import { LoopError } from "../errors/loop-error.js";
import { UnsupportedSpecificationError } from "../errors/unsupported-specification-error.js";

const marker = "loop.error.UnsupportedSharedLimitsError";
const symbol = Symbol.for(marker);

/**
 * Shared limits this version of the SDK cannot use: not a `SharedLimits` at all, or one that
 * implements another version of the interface than `v1` (its `specificationVersion`). Reported
 * by `runLoop` before any iteration (exit reason `limits_error`). Code:
 * `UNSUPPORTED_SHARED_LIMITS`.
 */
export class UnsupportedSharedLimitsError extends UnsupportedSpecificationError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** @param options - the version found, and an optional cause. */
  constructor(options: { specificationVersion: unknown; cause?: unknown }) {
    super(
      options,
      { interfaceName: "SharedLimits", noun: "shared limits implementation", article: "a" },
      "UnsupportedSharedLimitsError",
      "UNSUPPORTED_SHARED_LIMITS",
    );
  }

  /** Whether `error` is an {@link UnsupportedSharedLimitsError}, from any copy of the package. */
  static override isInstance(error: unknown): error is UnsupportedSharedLimitsError {
    return LoopError.hasMarker(error, marker);
  }
}
