import type { Diagnostic } from "../errors/diagnostic.js";
import { collectTaskDrafts, type TaskDraft } from "./collect-tasks.js";
import { assignTaskIds } from "./derived-task-id.js";
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
  const drafts = collectTaskDrafts(outline.blocks, tree.checkboxes);
  const issues: Diagnostic[] = [...duplicateIdIssues(drafts)];

  const ids = assignTaskIds(drafts);
  const tasks: LocatedTask[] = new Array(drafts.length);
  for (let index = 0; index < drafts.length; index += 1) {
    const draft = drafts[index] as TaskDraft;
    const parentId = draft.parentIndex === null ? undefined : ids[draft.parentIndex];
    tasks[index] = { task: buildTask(draft, ids[index] ?? "", parentId), checkbox: draft.checkbox };
  }

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
 * A task from its draft. The literals keep the properties in one order (`parentId` after
 * `depth`, `section` last), absent ones left out rather than `undefined`.
 */
function buildTask(draft: TaskDraft, id: string, parentId: string | undefined): Task {
  const { title, done, line, column, endLine, depth, optional, section } = draft;
  const idSource = draft.explicitId === null ? "derived" : "explicit";
  if (parentId === undefined) {
    return section === undefined
      ? { id, title, done, line, column, endLine, depth, optional, idSource }
      : { id, title, done, line, column, endLine, depth, optional, idSource, section };
  }
  return section === undefined
    ? { id, title, done, line, column, endLine, depth, parentId, optional, idSource }
    : { id, title, done, line, column, endLine, depth, parentId, optional, idSource, section };
}

interface IdOccurrence {
  readonly explicitId: string | null;
  readonly line: number;
  readonly column: number;
}

function duplicateIdIssues(occurrences: readonly IdOccurrence[]): Diagnostic[] {
  const first = new Map<string, IdOccurrence>();
  const issues: Diagnostic[] = [];
  for (const occurrence of occurrences) {
    const id = occurrence.explicitId;
    if (id === null) continue;
    const earlier = first.get(id);
    if (earlier === undefined) {
      first.set(id, occurrence);
      continue;
    }
    issues.push({
      message: `Duplicate task id "${id}", first used at ${earlier.line}:${earlier.column}; task ids must be unique, rename one of them`,
      line: occurrence.line,
      column: occurrence.column,
    });
  }
  return issues;
}
