import { LoopError } from "../errors/loop-error.js";

const marker = "loop.error.UnsupportedExecutorError";
const symbol = Symbol.for(marker);

/**
 * An executor this version of the SDK cannot use: not an executor at all, or one that implements
 * another version of the `Executor` interface than `v1` (its `specificationVersion`). Reported
 * by `runLoop` before any iteration. Code: `UNSUPPORTED_EXECUTOR`.
 */
export class UnsupportedExecutorError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The executor's `specificationVersion` as found (`undefined` when it has none). */
  readonly specificationVersion: unknown;

  /** @param options - the version found, and an optional cause. */
  constructor(options: { specificationVersion: unknown; cause?: unknown }) {
    const version = options.specificationVersion;
    const found =
      version === undefined
        ? "it has no specificationVersion (is it an Executor?)"
        : `it implements Executor specification ${typeof version === "string" ? `"${version}"` : String(version)}`;
    super(
      {
        message: `Unsupported executor: ${found}, but this version of @loop/core supports "v1" only. Use an executor built for this version, or upgrade @loop/core.`,
        cause: options.cause,
      },
      "UnsupportedExecutorError",
      "UNSUPPORTED_EXECUTOR",
    );
    this.specificationVersion = options.specificationVersion;
  }

  /** Whether `error` is an {@link UnsupportedExecutorError}, from any copy of the package. */
  static override isInstance(error: unknown): error is UnsupportedExecutorError {
    return LoopError.hasMarker(error, marker);
  }
}
