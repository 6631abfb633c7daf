import type { List, ListItem, Paragraph, RootContent } from "mdast";
import type { CheckboxSpan } from "./markdown-tree.js";
import { plainText } from "./plain-text.js";
import type { PlanBlock } from "./plan-outline.js";
import type { Task } from "./task.js";
import { explicitIdEnd, explicitIdSeparatorEnd, explicitIdTitle } from "./task-id.js";

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
  if (node.type === "list") visitList(node, scope, -1, 0);
  else if (node.type === "listItem") visitItem(node, scope, -1, 0);
}

function visitList(list: List, scope: Scope, parentIndex: number, depth: number): void {
  const items = list.children;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (item !== undefined) visitItem(item, scope, parentIndex, depth);
  }
}

function visitItem(item: ListItem, scope: Scope, parentIndex: number, depth: number): void {
  const checkbox = scope.checkboxes.get(item);
  const children = item.children;
  let childParent = parentIndex;
  let childDepth = depth;
  if (typeof item.checked === "boolean" && checkbox !== undefined && item.position) {
    const paragraph = firstParagraph(children);
    const text = paragraph === undefined ? "" : plainText(paragraph);
    childParent = scope.collected.tasks.length;
    childDepth = depth + 1;
    addTask(scope, item.checked, item.position, text, depth, parentIndex, checkbox);
  }
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index];
    if (child?.type === "list") visitList(child, scope, childParent, childDepth);
  }
}

function firstParagraph(children: ListItem["children"]): Paragraph | undefined {
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index];
    if (child?.type === "paragraph") return child;
  }
  return undefined;
}

/**
 * Adds a task. The literals keep the properties in one order (`parentId` after `depth`,
 * `section` last), absent ones left out rather than `undefined`.
 */
function addTask(
  scope: Scope,
  done: boolean,
  position: NonNullable<ListItem["position"]>,
  text: string,
  depth: number,
  parentIndex: number,
  checkbox: CheckboxSpan,
): void {
  const { optional, section, collected } = scope;
  const line = position.start.line;
  const column = position.start.column;
  const endLine = position.end.line;
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
