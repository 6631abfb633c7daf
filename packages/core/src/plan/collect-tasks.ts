import type { ListItem, Nodes, Paragraph } from "mdast";
import type { CheckboxSpan } from "./markdown-tree.js";
import { plainText } from "./plain-text.js";
import type { PlanBlock } from "./plan-outline.js";
import { readExplicitTaskId } from "./task-id.js";

/** A task item found in the tree, before ids are assigned. */
export interface TaskDraft {
  /** The explicit id at the start of the item, or `null`. */
  readonly explicitId: string | null;
  /** The title: the text after the explicit id, or the whole text. */
  readonly title: string;
  /** Whether the box is checked. */
  readonly done: boolean;
  /** 1-based line of the item's start. */
  readonly line: number;
  /** 1-based column of the item's start. */
  readonly column: number;
  /** 1-based line of the item's end. */
  readonly endLine: number;
  /** Number of enclosing task items. */
  readonly depth: number;
  /** Index (in the returned list) of the nearest enclosing task item, or `null`. */
  readonly parentIndex: number | null;
  /** Whether the item is under an optional heading. */
  readonly optional: boolean;
  /** Text of the nearest heading above the item. */
  readonly section: string | undefined;
  /** Where the checkbox's value lies in the body. */
  readonly checkbox: CheckboxSpan;
}

interface Scope {
  readonly optional: boolean;
  readonly section: string | undefined;
  readonly checkboxes: ReadonlyMap<ListItem, CheckboxSpan>;
  readonly drafts: TaskDraft[];
}

/**
 * Collects the task items of the blocks whose role is `task`, in document order, without
 * entering code blocks, raw HTML or block quotes.
 *
 * @param blocks - the plan's classified top-level blocks.
 * @param checkboxes - the checkbox of every task-list item.
 * @returns one draft per task item.
 */
export function collectTaskDrafts(
  blocks: readonly PlanBlock[],
  checkboxes: ReadonlyMap<ListItem, CheckboxSpan>,
): TaskDraft[] {
  const drafts: TaskDraft[] = [];
  for (const block of blocks) {
    if (block.role.kind !== "task") continue;
    const scope = {
      optional: block.role.optional,
      section: block.role.section,
      checkboxes,
      drafts,
    };
    visit(block.node, scope, null, 0);
  }
  return drafts;
}

function visit(node: Nodes, scope: Scope, parentIndex: number | null, depth: number): void {
  if (node.type === "list") {
    for (const item of node.children) visit(item, scope, parentIndex, depth);
    return;
  }
  if (node.type !== "listItem") return;
  const checkbox = scope.checkboxes.get(node);
  let childParent = parentIndex;
  let childDepth = depth;
  if (typeof node.checked === "boolean" && checkbox !== undefined && node.position) {
    const paragraph = firstParagraph(node);
    const text = paragraph === undefined ? "" : plainText(paragraph);
    const explicit = readExplicitTaskId(text);
    childParent = scope.drafts.length;
    childDepth = depth + 1;
    scope.drafts.push({
      explicitId: explicit?.id ?? null,
      title: explicit?.title ?? text,
      done: node.checked,
      line: node.position.start.line,
      column: node.position.start.column,
      endLine: node.position.end.line,
      depth,
      parentIndex,
      optional: scope.optional,
      section: scope.section,
      checkbox,
    });
  }
  for (const child of node.children) visit(child, scope, childParent, childDepth);
}

function firstParagraph(item: ListItem): Paragraph | undefined {
  for (const child of item.children) if (child.type === "paragraph") return child;
  return undefined;
}
