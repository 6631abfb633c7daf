import type { PlanStatus } from "./plan-status.js";
import type { Requirement } from "./requirements.js";
import type { Task } from "./task.js";

/** Options of {@link parsePlan}, {@link updatePlan} and {@link parsePlanRequirements}. */
export interface ParsePlanOptions {
  /** The plan's file name or path, used in error messages (`plan.md:12:3 …`). */
  readonly file?: string | undefined;
  /**
   * Headings whose task items are optional (`Task.optional`), matched case-insensitively,
   * ignoring emphasis, leading numbering and a trailing colon. Replaces the default list.
   * Default: {@link DEFAULT_OPTIONAL_HEADINGS} (`Optional`, `Future`,
   * `Future Enhancements`, `Nice to Have`).
   */
  readonly optionalHeadings?: readonly string[] | undefined;
}

/** What {@link parsePlan} reads from a markdown plan. */
export interface ParsedPlan {
  /** Every task, in document order (a parent before its children). */
  tasks: Task[];
  /** The RALPH_STATUS section, or `null` when the plan has none. */
  status: PlanStatus | null;
  /** The requirements, highest priority first (see {@link parsePlanRequirements}). */
  requirements: Requirement[];
}
