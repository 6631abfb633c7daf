/**
 * Markdown plans: read the tasks (GFM task-list items), the RALPH_STATUS section and the
 * requirements of a plan, edit its checkboxes and status without disturbing any other
 * byte, and parse an unchanged plan only once. The format is described in
 * `docs/plan-format.md`.
 *
 * @module
 */

export { EmptyPlanError, type EmptyPlanErrorOptions } from "./empty-plan-error.js";
export { parsePlan } from "./parse-plan.js";
export type { ParsedPlan, ParsePlanOptions } from "./parsed-plan.js";
export { createPlanCache, type PlanCache, type PlanCacheOptions } from "./plan-cache.js";
export { PlanParseError } from "./plan-parse-error.js";
export type { PlanSource } from "./plan-source.js";
export type { PlanStatus } from "./plan-status.js";
export type { PlanStatusUpdate } from "./plan-status-update.js";
export {
  PlanUpdateError,
  type PlanUpdateErrorOptions,
  type PlanUpdateIssue,
  type PlanUpdateIssueKind,
} from "./plan-update-error.js";
export { parsePlanRequirements, type Requirement } from "./requirements.js";
export {
  DEFAULT_OPTIONAL_HEADINGS,
  REQUIREMENT_SECTIONS,
  type RequirementSection,
} from "./section-names.js";
export type { Task, TaskIdSource } from "./task.js";
export { isParallelHeading, taskDependencies } from "./task-dependencies.js";
export { type PlanEdit, type UpdatePlanOptions, updatePlan } from "./update-plan.js";
