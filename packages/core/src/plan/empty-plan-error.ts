import { LoopError } from "../errors/loop-error.js";

const marker = "loop.error.EmptyPlanError";
const symbol = Symbol.for(marker);

/** Options of the {@link EmptyPlanError} constructor. */
export interface EmptyPlanErrorOptions {
  /** The plan's path or name, used in the message. */
  readonly file: string;
  /** Whether the plan is a prd.json (stories) rather than a Markdown plan (tasks). */
  readonly prd?: boolean | undefined;
}

/**
 * A plan without a single task (or a prd.json without a story): there is nothing for an agent
 * to do, so the loop stops before its first agent call — with exit reason `plan_error`, never
 * as complete — and says how to add one. Code: `PLAN_EMPTY`.
 *
 * @example
 * ```ts
 * const result = await runLoop(options);
 * if (EmptyPlanError.isInstance(result.error)) console.error(result.error.message);
 * ```
 */
export class EmptyPlanError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker is read through Symbol.for by isInstance.
  private readonly [symbol] = true;

  /** The plan's path or name. */
  readonly file: string;

  /** @param options - the plan's path and kind. */
  constructor(options: EmptyPlanErrorOptions) {
    const how =
      options.prd === true
        ? 'add a story to its "userStories" (docs/plan-format.md)'
        : "add one as a checkbox line such as `- [ ] TASK-001 Write the parser` (docs/plan-format.md)";
    super(
      {
        message: `${options.file === "" ? "The plan" : options.file} has no tasks, so there is nothing to run: ${how}.`,
      },
      "EmptyPlanError",
      "PLAN_EMPTY",
    );
    this.file = options.file;
  }

  /** Whether `error` is an {@link EmptyPlanError}, from any copy of the package. */
  static override isInstance(error: unknown): error is EmptyPlanError {
    return LoopError.hasMarker(error, marker);
  }
}
