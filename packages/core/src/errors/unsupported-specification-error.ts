import { LoopError } from "./loop-error.js";

/** What an {@link UnsupportedSpecificationError} subclass says about its plug point. */
export interface PlugPointNames {
  /** The interface, as in `StateStore` or `Executor`. */
  readonly interfaceName: string;
  /** The thing in words, as in `state store` or `executor`. */
  readonly noun: string;
  /** `a` or `an`, for the interface and the noun. */
  readonly article: "a" | "an";
}

/**
 * Base of the errors for a plug point (a `StateStore`, an `Executor`) that implements another
 * version of its interface than `v1`, or none: it keeps the version found and explains it.
 */
export class UnsupportedSpecificationError extends LoopError {
  /** The `specificationVersion` as found (`undefined` when there is none). */
  readonly specificationVersion: unknown;

  /**
   * @param options - the version found, and an optional cause.
   * @param names - how the plug point is named in the message.
   * @param name - the subclass name.
   * @param code - the subclass's stable code.
   */
  constructor(
    options: { specificationVersion: unknown; cause?: unknown },
    names: PlugPointNames,
    name: string,
    code: string,
  ) {
    const version = options.specificationVersion;
    const found =
      version === undefined
        ? `it has no specificationVersion (is it ${names.article} ${names.interfaceName}?)`
        : `it implements ${names.interfaceName} specification ${typeof version === "string" ? `"${version}"` : String(version)}`;
    super(
      {
        message: `Unsupported ${names.noun}: ${found}, but this version of @loop/core supports "v1" only. Use ${names.article} ${names.noun} built for this version, or upgrade @loop/core.`,
        cause: options.cause,
      },
      name,
      code,
    );
    this.specificationVersion = version;
  }
}
