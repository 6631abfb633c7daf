import type { Diagnostic } from "../errors/diagnostic.js";
import { type CollectedTasks, collectTasks } from "./collect-tasks.js";
import { assignIds } from "./derived-task-id.js";
import { type CheckboxSpan, type MarkdownTree, parseMarkdownTree } from "./markdown-tree.js";
import type { ParsedPlan, ParsePlanOptions } from "./parsed-plan.js";
import { outlinePlan, type PlanOutline } from "./plan-outline.js";
import { PlanParseError } from "./plan-parse-error.js";
import { interpretStatus } from "./plan-status.js";
import { collectRequirements } from "./requirements.js";
import { DEFAULT_OPTIONAL_HEADINGS } from "./section-names.js";
import { readStatusSection, type StatusSection, type StatusValue } from "./status-entries.js";
import type { Task } from "./task.js";

/** A task together with where its checkbox value lies in the plan's body. */
export interface LocatedTask {
  /** The task. */
  readonly task: Task;
  /** Its checkbox value's span in the body. */
  readonly checkbox: CheckboxSpan;
}

/** Everything parsing learnt about a plan, for parsing and for editing. */
export interface PlanAnalysis {
  /** The parsed tree and the body its offsets refer to. */
  readonly tree: MarkdownTree;
  /** The classified blocks and the status and title headings. */
  readonly outline: PlanOutline;
  /** The tasks with their checkboxes. */
  readonly tasks: readonly LocatedTask[];
  /** The RALPH_STATUS section as written, or `null`. */
  readonly statusSection: StatusSection | null;
  /**
   * The RALPH_STATUS section's entries as text (none without a section): what reading and
   * replacing status values needs, known without the section's nodes.
   */
  readonly statusEntries: readonly StatusValue[];
  /** The plan as {@link parsePlan} returns it. */
  readonly plan: ParsedPlan;
}

/**
 * Parses a plan and checks it: every duplicate explicit task id and every malformed known
 * RALPH_STATUS value is reported, all at once.
 *
 * @param markdown - the plan text.
 * @param options - file name and optional headings.
 * @param parseTree - how the markdown is parsed (the reference parse, in tests and benchmarks).
 * @returns the analysis.
 * @throws {PlanParseError} when the plan has duplicate explicit ids or malformed status values.
 */
export function analyzePlan(
  markdown: string,
  options?: ParsePlanOptions | null,
  parseTree: typeof parseMarkdownTree = parseMarkdownTree,
): PlanAnalysis {
  const tree = parseTree(markdown, { file: options?.file });
  const outline = outlinePlan(tree.root, options?.optionalHeadings ?? DEFAULT_OPTIONAL_HEADINGS);
  const collected = collectTasks(outline.blocks, tree.checkboxes);
  const issues: Diagnostic[] = duplicateIdIssues(collected);
  const tasks = withIds(collected);

  const statusSection =
    outline.statusHeading === null
      ? null
      : readStatusSection(tree.body, outline.statusHeading, outline.blocks);
  const interpreted = statusSection === null ? null : interpretStatus(statusSection, tree.body);
  if (interpreted !== null) issues.push(...interpreted.issues);

  if (issues.length > 0) {
    issues.sort(
      (left, right) =>
        (left.line ?? 0) - (right.line ?? 0) || (left.column ?? 0) - (right.column ?? 0),
    );
    throw new PlanParseError({ issues, file: options?.file });
  }
  const plan: ParsedPlan = {
    tasks: tasks.map(taskOf),
    status: interpreted?.status ?? null,
    requirements: collectRequirements(outline.blocks),
  };
  const statusEntries = statusSection?.entries ?? [];
  return { tree, outline, tasks, statusSection, statusEntries, plan };
}

function taskOf(located: LocatedTask): Task {
  return located.task;
}

/**
 * The collected tasks with their ids, and their parents' ids, filled in (a task with an
 * explicit id, and the `parentId` of one whose parent has one, were given it when collected).
 */
function withIds(collected: CollectedTasks): LocatedTask[] {
  const { tasks, explicitIds, parents } = collected;
  if (!explicitIds.includes(null)) return tasks;
  const ids = assignIds(
    explicitIds,
    tasks.map((located) => located.task.title),
  );
  for (let index = 0; index < tasks.length; index += 1) {
    const task = (tasks[index] as CollectedTasks["tasks"][number]).task;
    task.id = ids[index] ?? "";
    const parent = parents[index] ?? -1;
    if (parent >= 0) task.parentId = ids[parent] ?? "";
  }
  return tasks;
}

/**
 * An issue for every explicit id used before, naming where it was first used. Most plans have
 * none: a set of the ids finds that, and the first uses are looked up only when there are.
 */
function duplicateIdIssues({ tasks, explicitIds }: CollectedTasks): Diagnostic[] {
  const seen = new Set<string>();
  let duplicates = false;
  for (let index = 0; index < explicitIds.length && !duplicates; index += 1) {
    const id = explicitIds[index] ?? null;
    if (id === null) continue;
    duplicates = seen.has(id);
    seen.add(id);
  }
  if (!duplicates) return [];
  const first = new Map<string, number>();
  const issues: Diagnostic[] = [];
  for (let index = 0; index < explicitIds.length; index += 1) {
    const id = explicitIds[index] ?? null;
    if (id === null) continue;
    const earlierIndex = first.get(id);
    if (earlierIndex === undefined) {
      first.set(id, index);
      continue;
    }
    const earlier = tasks[earlierIndex]?.task;
    const task = tasks[index]?.task;
    if (earlier === undefined || task === undefined) continue;
    issues.push({
      message: `Duplicate task id "${id}", first used at ${earlier.line}:${earlier.column}; task ids must be unique, rename one of them`,
      line: task.line,
      column: task.column,
    });
  }
  return issues;
}
