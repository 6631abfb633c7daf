import { LoopError } from "../errors/loop-error.js";
import type { LockHolder } from "./state-store.js";

const marker = "loop.error.PlanInUseError";
const symbol = Symbol.for(marker);

/** What {@link PlanInUseError} is told. */
export interface PlanInUseErrorOptions {
  /** The plan this run was to run. */
  readonly planPath: string;
  /** The live loop that holds the plan (or the project). */
  readonly holder: LockHolder;
  /**
   * The project folder, when the lock refused is the project's (its terminals share one plan:
   * `plans.allow_per_terminal_plan: false`); absent when it is the plan file's own.
   */
  readonly projectRoot?: string | undefined;
  /** Whether this run is a parallel one, which needs the project to itself. */
  readonly parallel?: boolean | undefined;
  /** The store's refusal. */
  readonly cause?: unknown;
}

function messageOf(options: PlanInUseErrorOptions): string {
  const { holder } = options;
  const who = `another loop (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt})`;
  if (options.projectRoot === undefined) {
    return `${options.planPath} is being run by ${who}: two loops on one plan would work the same tasks. Stop that loop first, or run this terminal on a plan of its own (with plans.allow_per_terminal_plan: true).`;
  }
  if (options.parallel === true) {
    return `${options.projectRoot} is being run by ${who}: a parallel run works in the project's repository (its worktrees, its main line), so it runs alone in the project. Stop that loop first, or run without --parallel.`;
  }
  return `${options.projectRoot} is being run by ${who}: its terminals share one plan (plans.allow_per_terminal_plan: false), so one loop runs in it at a time. Stop that loop first, or set plans.allow_per_terminal_plan: true to let each terminal run a plan of its own.`;
}

/**
 * Another live loop runs the same plan file, from another terminal — or, when a project's
 * terminals share one plan (`plans.allow_per_terminal_plan: false`, the default), runs in the
 * same project: two loops on one plan would work the same tasks at once, so the second is
 * refused before it does anything. Code: `STATE_PLAN_IN_USE` (exit reason `state_error`). Its
 * message names the holder and what to do.
 */
export class PlanInUseError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker is read through Symbol.for by isInstance.
  private readonly [symbol] = true;

  /** The plan this run was to run. */
  readonly planPath: string;
  /** The loop that runs it. */
  readonly holder: LockHolder;
  /** The project whose lock was refused; `null` when the plan file's own was. */
  readonly projectRoot: string | null;

  /** @param options - the plan, the holder, the project and an optional cause. */
  constructor(options: PlanInUseErrorOptions) {
    super(
      { message: messageOf(options), cause: options.cause },
      "PlanInUseError",
      "STATE_PLAN_IN_USE",
    );
    this.planPath = options.planPath;
    this.holder = options.holder;
    this.projectRoot = options.projectRoot ?? null;
  }

  /** Whether `error` is a {@link PlanInUseError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PlanInUseError {
    return LoopError.hasMarker(error, marker);
  }
}
