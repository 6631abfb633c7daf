import { LoopError } from "../errors/loop-error.js";
import type { LockHolder } from "./state-store.js";

const marker = "loop.error.PlanInUseError";
const symbol = Symbol.for(marker);

/**
 * Another live loop runs the same plan file, from another terminal: two loops on one plan would
 * work the same tasks at once, so the second is refused before it does anything. Code:
 * `STATE_PLAN_IN_USE` (exit reason `state_error`). Its message names the holder.
 */
export class PlanInUseError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker is read through Symbol.for by isInstance.
  private readonly [symbol] = true;

  /** The plan's path. */
  readonly planPath: string;
  /** The loop that runs it. */
  readonly holder: LockHolder;

  /** @param options - the plan, the holder and an optional cause. */
  constructor(options: { planPath: string; holder: LockHolder; cause?: unknown }) {
    super(
      {
        message: `${options.planPath} is being run by another loop (pid ${options.holder.pid} on ${options.holder.host}, since ${options.holder.startedAt}): two loops on one plan would work the same tasks. Stop that loop first, or run this terminal on a plan of its own.`,
        cause: options.cause,
      },
      "PlanInUseError",
      "STATE_PLAN_IN_USE",
    );
    this.planPath = options.planPath;
    this.holder = options.holder;
  }

  /** Whether `error` is a {@link PlanInUseError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PlanInUseError {
    return LoopError.hasMarker(error, marker);
  }
}
