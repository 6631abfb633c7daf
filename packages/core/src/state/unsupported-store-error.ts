import { LoopError } from "../errors/loop-error.js";

const marker = "loop.error.UnsupportedStoreError";
const symbol = Symbol.for(marker);

/**
 * A state store this version of the SDK cannot use: not a store at all, or one that implements
 * another version of the `StateStore` interface than `v1` (its `specificationVersion`). Thrown
 * by `createStateManager` before anything is read. Code: `UNSUPPORTED_STORE`.
 */
export class UnsupportedStoreError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The store's `specificationVersion` as found (`undefined` when it has none). */
  readonly specificationVersion: unknown;

  /** @param options - the version found, and an optional cause. */
  constructor(options: { specificationVersion: unknown; cause?: unknown }) {
    const version = options.specificationVersion;
    const found =
      version === undefined
        ? "it has no specificationVersion (is it a StateStore?)"
        : `it implements StateStore specification ${typeof version === "string" ? `"${version}"` : String(version)}`;
    super(
      {
        message: `Unsupported state store: ${found}, but this version of @loop/core supports "v1" only. Use a store built for this version, or upgrade @loop/core.`,
        cause: options.cause,
      },
      "UnsupportedStoreError",
      "UNSUPPORTED_STORE",
    );
    this.specificationVersion = options.specificationVersion;
  }

  /** Whether `error` is an {@link UnsupportedStoreError}, from any copy of the package. */
  static override isInstance(error: unknown): error is UnsupportedStoreError {
    return LoopError.hasMarker(error, marker);
  }
}
