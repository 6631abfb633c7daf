import { LoopError } from "@loop/core";

const marker = "loop.error.PlanNotFoundError";
const symbol = Symbol.for(marker);

/** Options of the {@link PlanNotFoundError} constructor. */
export interface PlanNotFoundErrorOptions {
  /** The plan's path, as given to `filePlan`. */
  readonly path: string;
  /** The underlying error (the `ENOENT` system error). */
  readonly cause?: unknown;
}

/**
 * The plan file does not exist. The loop cannot go on without its plan: the seed's "Plan file
 * not found: exit with error". Code: `PLAN_NOT_FOUND`; the message starts with the seed's
 * `Plan file not found` and names the path.
 *
 * @example
 * ```ts
 * try {
 *   await filePlan("plan.md").read();
 * } catch (error) {
 *   if (PlanNotFoundError.isInstance(error)) console.error(error.message); // Plan file not found: plan.md
 *   else throw error;
 * }
 * ```
 */
export class PlanNotFoundError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for() by isInstance
  private readonly [symbol] = true;

  /** The plan's path, as given. */
  readonly path: string;

  /** @param options - the path and the underlying error. */
  constructor(options: PlanNotFoundErrorOptions) {
    super(
      { message: `Plan file not found: ${options.path}`, cause: options.cause },
      "PlanNotFoundError",
      "PLAN_NOT_FOUND",
    );
    this.path = options.path;
  }

  /** Whether `error` is a {@link PlanNotFoundError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PlanNotFoundError {
    return LoopError.hasMarker(error, marker);
  }
}
