import type { ListItem, RootContent } from "mdast";
import { deferredTaskRecords } from "./deferred-list.js";
import type { CheckboxSpan } from "./markdown-tree.js";
import type { PlanBlock } from "./plan-outline.js";
import type { Task } from "./task.js";
import { explicitIdEnd, explicitIdSeparatorEnd, explicitIdTitle } from "./task-id.js";
import { itemTaskRecords, listTaskRecords, type TaskRecord } from "./task-records.js";

/** A task as it is collected: its id is final only once {@link CollectedTasks} are assigned ids. */
export type TaskDraft = { -readonly [Key in keyof Task]: Task[Key] };

/** The task items found in a plan's tree, before ids are assigned. */
export interface CollectedTasks {
  /**
   * The tasks in document order, each with its checkbox's span in the body. A task with an
   * explicit id has it; a derived id and the `parentId` of a task whose parent has no explicit
   * id are `""` until assigned (a task with a parent has a `parentId`, a task without none).
   */
  readonly tasks: { readonly task: TaskDraft; readonly checkbox: CheckboxSpan }[];
  /** Each task's explicit id, or `null` (by index). */
  readonly explicitIds: (string | null)[];
  /** The index of each task's nearest enclosing task, or -1 (by index). */
  readonly parents: number[];
}

interface Scope {
  readonly optional: boolean;
  readonly section: string | undefined;
  readonly checkboxes: ReadonlyMap<ListItem, CheckboxSpan>;
  readonly collected: CollectedTasks;
}

/**
 * Collects the task items of the blocks whose role is `task`, in document order, without
 * entering code blocks, raw HTML or block quotes: only lists and their items are visited.
 * Each task is built here, in the shape the plan returns it, so that nothing is copied once
 * ids are known.
 *
 * @param blocks - the plan's classified top-level blocks.
 * @param checkboxes - the checkbox of every task-list item.
 * @returns the tasks, their explicit ids and their parents.
 */
export function collectTasks(
  blocks: readonly PlanBlock[],
  checkboxes: ReadonlyMap<ListItem, CheckboxSpan>,
): CollectedTasks {
  const collected: CollectedTasks = { tasks: [], explicitIds: [], parents: [] };
  for (const block of blocks) {
    if (block.role.kind !== "task") continue;
    const scope = {
      optional: block.role.optional,
      section: block.role.section,
      checkboxes,
      collected,
    };
    visitBlock(block.node, scope);
  }
  return collected;
}

function visitBlock(node: RootContent, scope: Scope): void {
  const lookup = (item: ListItem) => scope.checkboxes.get(item);
  let records: readonly TaskRecord[];
  if (node.type === "list") records = deferredTaskRecords(node) ?? listTaskRecords(node, lookup);
  else if (node.type === "listItem") records = itemTaskRecords(node, lookup);
  else return;
  const base = scope.collected.tasks.length;
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index];
    if (record !== undefined) addTask(scope, record, record.parent < 0 ? -1 : base + record.parent);
  }
}

/**
 * Adds a task. The literals keep the properties in one order (`parentId` after `depth`,
 * `section` last), absent ones left out rather than `undefined`.
 */
function addTask(scope: Scope, record: TaskRecord, parentIndex: number): void {
  const { optional, section, collected } = scope;
  const { done, text, line, column, endLine, depth, checkbox } = record;
  const idEnd = explicitIdEnd(text);
  const titleStart = idEnd < 0 ? -1 : explicitIdSeparatorEnd(text, idEnd);
  const explicitId = titleStart < 0 ? null : text.slice(0, idEnd);
  const id = explicitId ?? "";
  const title = titleStart < 0 ? text : explicitIdTitle(text, titleStart);
  const idSource = explicitId === null ? "derived" : "explicit";
  const parentId = parentIndex < 0 ? undefined : (collected.tasks[parentIndex]?.task.id ?? "");
  let task: TaskDraft;
  if (parentId === undefined) {
    task =
      section === undefined
        ? { id, title, done, line, column, endLine, depth, optional, idSource }
        : { id, title, done, line, column, endLine, depth, optional, idSource, section };
  } else {
    task =
      section === undefined
        ? { id, title, done, line, column, endLine, depth, parentId, optional, idSource }
        : { id, title, done, line, column, endLine, depth, parentId, optional, idSource, section };
  }
  collected.tasks.push({ task, checkbox });
  collected.explicitIds.push(explicitId);
  collected.parents.push(parentIndex);
}
