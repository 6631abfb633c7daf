import { checkboxSplices } from "./checkbox-edits.js";
import type { ParsePlanOptions } from "./parsed-plan.js";
import { analyzePlan, type PlanAnalysis } from "./plan-analysis.js";
import type { PlanStatusUpdate } from "./plan-status-update.js";
import { PlanUpdateError, type PlanUpdateIssue } from "./plan-update-error.js";
import { statusSplices } from "./status-edits.js";
import { applySplices, type TextSplice } from "./text-splice.js";

/** What {@link updatePlan} changes in a plan. */
export interface PlanEdit {
  /** Ids of the tasks to mark done (`[ ]` → `[x]`). Already checked boxes stay as they are. */
  readonly check?: readonly string[] | undefined;
  /** Ids of the tasks to mark not done (`[x]`/`[X]` → `[ ]`). Open boxes stay as they are. */
  readonly uncheck?: readonly string[] | undefined;
  /** Values to write in the RALPH_STATUS section. */
  readonly status?: PlanStatusUpdate | undefined;
}

/** Options of {@link updatePlan}: the same as {@link parsePlan}'s, since the edit finds tasks the same way. */
export type UpdatePlanOptions = ParsePlanOptions;

/**
 * Edits a markdown plan, changing only the characters that must change: the value of each
 * checkbox to flip (located from the markdown tree, not by searching lines), and the
 * value characters of each RALPH_STATUS entry to set. Line endings (CRLF included), tabs,
 * trailing spaces, a byte order mark, non-ASCII text and every other character survive.
 *
 * A status key without an entry is added after the section's last entry, with the same
 * bullet, indentation and line ending (canonical spellings `EXIT_SIGNAL`,
 * `completion_indicators`, `current_task`; `null` is written `none`). Without a
 * RALPH_STATUS section, a `## RALPH_STATUS` section with the entries is added where it holds
 * nothing else, using the file's dominant line ending: after the title (the first `#`
 * heading) when a `#` or `##` heading or nothing follows it, else before the next `#` or
 * `##` heading, else at the end. The plan's tasks stay what they were.
 *
 * The edit is all or nothing: on any error the plan is not changed.
 *
 * @param markdown - the plan text.
 * @param edit - the tasks to check and uncheck and the status values to write.
 * @param options - the file name for error messages and the optional headings (which
 *   decide, as in {@link parsePlan}, which items are tasks).
 * @returns the edited plan; the same string when nothing had to change.
 * @throws {TypeError} when `markdown` is not a string or `check`/`uncheck` is not a list
 *   of strings.
 * @throws {PlanParseError} when the plan itself fails {@link parsePlan}.
 * @throws {PlanUpdateError} listing every id to check or uncheck that is not a task (with
 *   the nearest existing id suggested when one is close), every id given in both lists,
 *   and every invalid status value.
 *
 * @example
 * ```ts
 * const plan = "# Auth\r\n\r\n## Tasks\r\n- [ ] TASK-001 Design schema\r\n";
 * updatePlan(plan, { check: ["TASK-001"], status: { exitSignal: true } });
 * // "# Auth\r\n\r\n## RALPH_STATUS\r\n\r\n- EXIT_SIGNAL: true\r\n\r\n## Tasks\r\n- [x] TASK-001 Design schema\r\n"
 * ```
 */
export function updatePlan(
  markdown: string,
  edit: PlanEdit,
  options?: UpdatePlanOptions | null,
): string {
  // The lists are checked before the plan is parsed: a wrong call fails fast.
  idList(edit?.check, "check");
  idList(edit?.uncheck, "uncheck");
  return editAnalyzedPlan(analyzePlan(markdown, options), markdown, edit, options);
}

/**
 * {@link updatePlan} on a plan already analysed (the engine keeps each text's analysis, so an
 * edit does not parse the plan again). Internal.
 *
 * @param analysis - `analyzePlan(markdown, options)`.
 * @param markdown - the plan text the analysis is of.
 * @param edit - as for {@link updatePlan}.
 * @param options - as for {@link updatePlan}.
 */
export function editAnalyzedPlan(
  analysis: PlanAnalysis,
  markdown: string,
  edit: PlanEdit,
  options?: UpdatePlanOptions | null,
): string {
  const splices = planEditSplices(analysis, edit, options);
  if (splices.length === 0) return markdown;
  return analysis.tree.bom + applySplices(analysis.tree.body, splices);
}

/**
 * The splices of {@link updatePlan}'s edit on a plan already analysed, on
 * `analysis.tree.body`: none when the plan already reads as the edit asks. Internal.
 *
 * @param analysis - the analysed plan.
 * @param edit - as for {@link updatePlan}.
 * @param options - as for {@link updatePlan}.
 * @throws {PlanUpdateError} as {@link updatePlan} does.
 */
export function planEditSplices(
  analysis: PlanAnalysis,
  edit: PlanEdit,
  options?: UpdatePlanOptions | null,
): TextSplice[] {
  const check = idList(edit?.check, "check");
  const uncheck = idList(edit?.uncheck, "uncheck");
  const issues: PlanUpdateIssue[] = [];
  const splices = [
    ...checkboxSplices(analysis.tasks, check, uncheck, issues),
    ...statusSplices(analysis, edit?.status ?? {}, issues),
  ];
  if (issues.length > 0) throw new PlanUpdateError({ issues, file: options?.file });
  return splices;
}

function idList(ids: readonly string[] | undefined, name: string): readonly string[] {
  if (ids === undefined) return [];
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string")) {
    throw new TypeError(`updatePlan: ${name} must be a list of task ids (strings)`);
  }
  return ids;
}
