import { DiagnosticsError, parsePlan, parsePrd } from "@loop/core";
import { findNearMissCheckboxes } from "./near-miss-checkboxes.js";
import {
  fileProblem,
  problemFromDiagnostic,
  type ValidationProblem,
} from "./validation-problem.js";

/** Options of {@link checkPlanText}. */
export interface CheckPlanOptions {
  /** The config's `plans.optional_headings`, for a markdown plan. Default: the SDK's. */
  readonly optionalHeadings?: readonly string[] | undefined;
}

/** What {@link checkPlanText} found. */
export interface PlanCheck {
  /** Every problem, each with its position. */
  readonly problems: readonly ValidationProblem[];
  /** Things that are valid but probably unintended: a plan without tasks. */
  readonly warnings: readonly ValidationProblem[];
  /** What the plan holds, for the summary (`4 tasks, 1 done`), when it is valid. */
  readonly summary: string | null;
}

/** Whether the plan is a prd.json rather than markdown: its name ends in `.json`. */
export function isPrdPath(path: string): boolean {
  return path.toLowerCase().endsWith(".json");
}

/** What a plan holds: its tasks, or a prd.json's stories. */
interface PlanItems {
  readonly total: number;
  readonly done: number;
  readonly kind: "task" | "story";
}

const PLURALS = { task: "tasks", story: "stories" } as const;

const EMPTY_PLAN_WARNINGS = {
  task: "no tasks: a task is a checkbox item such as `- [ ] TASK-001 Do something` (docs/plan-format.md)",
  story: "no stories: the loop has nothing to do (docs/prd-format.md)",
} as const;

function readItems(text: string, file: string, options: CheckPlanOptions): PlanItems {
  if (isPrdPath(file)) {
    const { stories } = parsePrd(text, { file });
    const done = stories.filter((story) => story.passes).length;
    return { total: stories.length, done, kind: "story" };
  }
  const { tasks } = parsePlan(text, { file, optionalHeadings: options.optionalHeadings });
  return { total: tasks.length, done: tasks.filter((task) => task.done).length, kind: "task" };
}

/** A warning for each list item whose checkbox a task list does not take. */
function nearMissWarnings(text: string, file: string): ValidationProblem[] {
  return findNearMissCheckboxes(text).map((miss) => ({
    file,
    line: miss.line,
    column: miss.column,
    message: `\`${miss.written}\` is not a task checkbox, so this item is not a task: write \`- [ ] \` (or \`- [x] \` when done), one space inside the brackets and one after the list marker`,
  }));
}

/**
 * Checks a plan's text: a markdown plan with `parsePlan` (duplicate task ids, malformed
 * `RALPH_STATUS` values), a prd.json (a name ending in `.json`) with `parsePrd` (JSON syntax,
 * stories without a title, unknown or circular dependencies…). Pure.
 *
 * @param text - the plan's text.
 * @param file - the file, as messages show it; its extension chooses the format.
 * @param options - the optional headings of a markdown plan.
 * @returns the problems, warnings (nothing to do; an item whose checkbox is almost a task's,
 *   `- [] TASK-4`), and a summary.
 * @throws what the parsers throw other than their diagnostics errors (a bug).
 */
export function checkPlanText(
  text: string,
  file: string,
  options: CheckPlanOptions = {},
): PlanCheck {
  let items: PlanItems;
  try {
    items = readItems(text, file, options);
  } catch (error) {
    if (!DiagnosticsError.isInstance(error)) throw error;
    const problems = error.issues.map((issue) => problemFromDiagnostic(file, issue));
    return { problems, warnings: [], summary: null };
  }
  const warnings = items.total === 0 ? [fileProblem(file, EMPTY_PLAN_WARNINGS[items.kind])] : [];
  if (items.kind === "task") warnings.push(...nearMissWarnings(text, file));
  const noun = items.total === 1 ? items.kind : PLURALS[items.kind];
  return { problems: [], warnings, summary: `${items.total} ${noun}, ${items.done} done` };
}
