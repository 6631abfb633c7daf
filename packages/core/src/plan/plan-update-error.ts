import { formatDiagnosticsMessage } from "../errors/diagnostic.js";
import { LoopError } from "../errors/loop-error.js";

const marker = "loop.error.PlanUpdateError";
const symbol = Symbol.for(marker);

/**
 * Kind of a {@link PlanUpdateIssue}: an id that is not a task of the plan, an id both
 * checked and unchecked, or a status value or key that cannot be written.
 */
export type PlanUpdateIssueKind = "unknown-id" | "conflicting-id" | "invalid-status";

/** One reason an edit cannot be applied to a plan. */
export interface PlanUpdateIssue {
  /** What kind of problem it is. */
  readonly kind: PlanUpdateIssueKind;
  /** What is wrong and, where possible, what would be valid. */
  readonly message: string;
  /** The task id the problem is about, if any. */
  readonly id?: string;
  /** The nearest existing task id, when the id is unknown and one is close. */
  readonly suggestion?: string;
}

/** Options of the {@link PlanUpdateError} constructor. */
export interface PlanUpdateErrorOptions {
  /** Every problem found in the edit. At least one. */
  readonly issues: readonly PlanUpdateIssue[];
  /** The plan's file name or path, used in the message. */
  readonly file?: string | undefined;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * An edit that {@link updatePlan} cannot apply: a task id to check or uncheck that is not
 * a task of the plan (with the nearest existing id suggested when one is close), an id
 * both checked and unchecked, or an invalid status value. The plan is left unchanged.
 * Code: `PLAN_UPDATE_ERROR`.
 *
 * @example
 * ```ts
 * try {
 *   updatePlan(text, { check: ["TASK-01"] });
 * } catch (error) {
 *   if (PlanUpdateError.isInstance(error)) console.error(error.unknownIds, error.message);
 *   else throw error;
 * }
 * ```
 */
export class PlanUpdateError extends LoopError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker is read through Symbol.for by isInstance.
  private readonly [symbol] = true;

  /** Every problem found in the edit. */
  readonly issues: readonly PlanUpdateIssue[];
  /** The ids to check or uncheck that are not tasks of the plan. */
  readonly unknownIds: readonly string[];
  /** The plan's file name or path, when the caller gave one. */
  readonly file: string | undefined;

  /** @param options - the problems, the plan's file name and the cause. */
  constructor(options: PlanUpdateErrorOptions) {
    const summary =
      options.file === undefined ? "Cannot update plan" : `Cannot update ${options.file}`;
    super(
      { message: formatDiagnosticsMessage(summary, options.issues), cause: options.cause },
      "PlanUpdateError",
      "PLAN_UPDATE_ERROR",
    );
    this.issues = options.issues;
    this.unknownIds = options.issues.flatMap((issue) =>
      issue.kind === "unknown-id" && issue.id !== undefined ? [issue.id] : [],
    );
    this.file = options.file;
  }

  /** Whether `error` is a {@link PlanUpdateError}, from any copy of the package. */
  static override isInstance(error: unknown): error is PlanUpdateError {
    return LoopError.hasMarker(error, marker);
  }
}
