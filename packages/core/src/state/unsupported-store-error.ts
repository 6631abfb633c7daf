import { LoopError } from "../errors/loop-error.js";
import { UnsupportedSpecificationError } from "../errors/unsupported-specification-error.js";

const marker = "loop.error.UnsupportedStoreError";
const symbol = Symbol.for(marker);

/**
 * A state store this version of the SDK cannot use: not a store at all, or one that implements
 * another version of the `StateStore` interface than `v1` (its `specificationVersion`). Thrown
 * by `createStateManager` before anything is read. Code: `UNSUPPORTED_STORE`.
 */
export class UnsupportedStoreError extends UnsupportedSpecificationError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** @param options - the version found, and an optional cause. */
  constructor(options: { specificationVersion: unknown; cause?: unknown }) {
    super(
      options,
      { interfaceName: "StateStore", noun: "state store", article: "a" },
      "UnsupportedStoreError",
      "UNSUPPORTED_STORE",
    );
  }

  /** Whether `error` is an {@link UnsupportedStoreError}, from any copy of the package. */
  static override isInstance(error: unknown): error is UnsupportedStoreError {
    return LoopError.hasMarker(error, marker);
  }
}
