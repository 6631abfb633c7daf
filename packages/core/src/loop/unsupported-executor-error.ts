import { LoopError } from "../errors/loop-error.js";
import { UnsupportedSpecificationError } from "../errors/unsupported-specification-error.js";

const marker = "loop.error.UnsupportedExecutorError";
const symbol = Symbol.for(marker);

/**
 * An executor this version of the SDK cannot use: not an executor at all, or one that implements
 * another version of the `Executor` interface than `v1` (its `specificationVersion`). Reported
 * by `runLoop` before any iteration. Code: `UNSUPPORTED_EXECUTOR`.
 */
export class UnsupportedExecutorError extends UnsupportedSpecificationError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** @param options - the version found, and an optional cause. */
  constructor(options: { specificationVersion: unknown; cause?: unknown }) {
    super(
      options,
      { interfaceName: "Executor", noun: "executor", article: "an" },
      "UnsupportedExecutorError",
      "UNSUPPORTED_EXECUTOR",
    );
  }

  /** Whether `error` is an {@link UnsupportedExecutorError}, from any copy of the package. */
  static override isInstance(error: unknown): error is UnsupportedExecutorError {
    return LoopError.hasMarker(error, marker);
  }
}
