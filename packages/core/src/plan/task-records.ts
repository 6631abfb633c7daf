import type { List, ListItem, Paragraph } from "mdast";
import type { CheckboxSpan } from "./markdown-tree.js";
import { plainText } from "./plain-text.js";

/** What a task item gives its task, read from the tree. */
export interface TaskRecord {
  /** Whether its checkbox is checked. */
  readonly done: boolean;
  /** Its checkbox value's span. */
  readonly checkbox: CheckboxSpan;
  /** The plain text of its first paragraph (`""` without one). */
  readonly text: string;
  /** The 1-based line and column where the item starts, and the line where it ends. */
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  /** How many task items enclose it, in the list read. */
  readonly depth: number;
  /** The index, among the records of the list read, of its nearest enclosing task, or -1. */
  readonly parent: number;
}

/** Where the checkbox of a task-list item is, if it has one. */
export type CheckboxLookup = (item: ListItem) => CheckboxSpan | null | undefined;

/**
 * The task items of a list and of the lists nested in its items, in document order: an item
 * is a task when it is checked or unchecked and has a checkbox. Only lists and their items
 * are entered (not block quotes or anything else an item holds).
 *
 * @param list - the list.
 * @param checkbox - the checkbox of an item.
 * @returns a record per task item.
 */
export function listTaskRecords(list: List, checkbox: CheckboxLookup): TaskRecord[] {
  const records: TaskRecord[] = [];
  visitList(list, checkbox, records, -1, 0);
  return records;
}

/**
 * The task items of one item and of the lists nested in it, like {@link listTaskRecords}.
 *
 * @param item - the item.
 * @param checkbox - the checkbox of an item.
 * @returns a record per task item.
 */
export function itemTaskRecords(item: ListItem, checkbox: CheckboxLookup): TaskRecord[] {
  const records: TaskRecord[] = [];
  visitItem(item, checkbox, records, -1, 0);
  return records;
}

function visitList(
  list: List,
  checkbox: CheckboxLookup,
  records: TaskRecord[],
  parent: number,
  depth: number,
): void {
  const items = list.children;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (item !== undefined) visitItem(item, checkbox, records, parent, depth);
  }
}

function visitItem(
  item: ListItem,
  checkbox: CheckboxLookup,
  records: TaskRecord[],
  parent: number,
  depth: number,
): void {
  const span = checkbox(item) ?? undefined;
  const children = item.children;
  let childParent = parent;
  let childDepth = depth;
  const position = item.position;
  if (typeof item.checked === "boolean" && span !== undefined && position) {
    const paragraph = firstParagraph(children);
    childParent = records.length;
    childDepth = depth + 1;
    records.push({
      done: item.checked,
      checkbox: span,
      text: paragraph === undefined ? "" : plainText(paragraph),
      line: position.start.line,
      column: position.start.column,
      endLine: position.end.line,
      depth,
      parent,
    });
  }
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index];
    if (child?.type === "list") visitList(child, checkbox, records, childParent, childDepth);
  }
}

function firstParagraph(children: ListItem["children"]): Paragraph | undefined {
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index];
    if (child?.type === "paragraph") return child;
  }
  return undefined;
}
