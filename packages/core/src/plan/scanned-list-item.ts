import type { ListItem, Nodes, Root } from "mdast";
import type { Point } from "./line-table.js";
import type { CheckboxSpan } from "./markdown-tree.js";

/** A list item node as the scanner first makes it: `{ type, spread, checked, children, position }`. */
interface ItemShell {
  type: "listItem";
  spread: boolean;
  checked: boolean | null;
  children: ListItem["children"];
  position: NonNullable<ListItem["position"]>;
}

/**
 * Makes the plain object a list item starts as (its prototype is `Object.prototype`, as a
 * literal's is). A constructor rather than a literal, because V8 then keeps room inside the
 * object for the private field {@link ItemCheckbox} adds (a literal's object would hold it in
 * a second, separate array).
 */
const ItemShell = function (this: ItemShell, start: Point): void {
  this.type = "listItem";
  this.spread = false;
  this.checked = null;
  this.children = [];
  this.position = { start, end: start };
} as unknown as new (
  start: Point,
) => ItemShell;
ItemShell.prototype = Object.prototype;

/** A constructor that returns the object it is given, so that a subclass can add fields to any object. */
class Stamp {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of the class (see ItemCheckbox).
    return target;
  }
}

/**
 * Keeps the checkbox of a list item the scanner built in a private field of the item itself,
 * where a map from items to checkboxes would need an entry per task (and the hashing to find
 * it): private fields are invisible to every reader of the object (its keys, `JSON.stringify`,
 * deep equality), and its prototype stays `Object.prototype`.
 */
class ItemCheckbox extends Stamp {
  #checkbox: CheckboxSpan | null;

  constructor(target: ItemShell) {
    super(target);
    this.#checkbox = null;
  }

  static get(item: object): CheckboxSpan | null | undefined {
    return #checkbox in item ? (item as ItemCheckbox).#checkbox : undefined;
  }

  static set(item: object, checkbox: CheckboxSpan | null): void {
    if (#checkbox in item) (item as ItemCheckbox).#checkbox = checkbox;
  }
}

/**
 * A list item node the scanner built: not spread, unchecked, no children yet, starting and
 * (for now) ending at `start`, without a checkbox.
 *
 * @param start - the point where its marker starts.
 * @returns the item.
 */
export function scannedListItem(start: Point): ListItem {
  const item = new ItemShell(start);
  new ItemCheckbox(item);
  return item as ListItem;
}

/**
 * Records the checkbox of a task item made by {@link scannedListItem} (nothing for any other
 * item).
 *
 * @param item - the item.
 * @param checkbox - its checkbox value's span.
 */
export function setScannedCheckbox(item: ListItem, checkbox: CheckboxSpan): void {
  ItemCheckbox.set(item, checkbox);
}

/**
 * The checkbox recorded for an item made by {@link scannedListItem}: `null` when it has none,
 * `undefined` for any other item.
 *
 * @param item - the item.
 */
export function scannedCheckbox(item: ListItem): CheckboxSpan | null | undefined {
  return ItemCheckbox.get(item);
}

/**
 * The checkboxes of a tree's task items, by item: those of the items the scanner built (kept
 * in the items, see {@link setScannedCheckbox}) and those micromark's items had, in a map.
 * Iterating walks the tree (reading every list's items).
 */
export class TreeCheckboxes implements ReadonlyMap<ListItem, CheckboxSpan> {
  readonly #root: Root;
  readonly #scannedCount: number;
  readonly #parsed: ReadonlyMap<ListItem, CheckboxSpan>;

  /**
   * @param root - the tree.
   * @param scannedCount - how many task items of the tree the scanner built.
   * @param parsed - the checkboxes of the task items micromark built.
   */
  constructor(root: Root, scannedCount: number, parsed: ReadonlyMap<ListItem, CheckboxSpan>) {
    this.#root = root;
    this.#scannedCount = scannedCount;
    this.#parsed = parsed;
  }

  get size(): number {
    return this.#scannedCount + this.#parsed.size;
  }

  get(item: ListItem): CheckboxSpan | undefined {
    const scanned = ItemCheckbox.get(item);
    return scanned === undefined ? this.#parsed.get(item) : (scanned ?? undefined);
  }

  has(item: ListItem): boolean {
    return this.get(item) !== undefined;
  }

  *entries(): MapIterator<[ListItem, CheckboxSpan]> {
    const pending: Nodes[] = [this.#root];
    for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
      if (node.type === "listItem") {
        const checkbox = this.get(node);
        if (checkbox !== undefined) yield [node, checkbox];
      }
      if ("children" in node) {
        for (let index = node.children.length - 1; index >= 0; index -= 1) {
          const child = node.children[index];
          if (child !== undefined) pending.push(child);
        }
      }
    }
  }

  *keys(): MapIterator<ListItem> {
    for (const [item] of this.entries()) yield item;
  }

  *values(): MapIterator<CheckboxSpan> {
    for (const [, checkbox] of this.entries()) yield checkbox;
  }

  [Symbol.iterator](): MapIterator<[ListItem, CheckboxSpan]> {
    return this.entries();
  }

  forEach(
    callback: (
      value: CheckboxSpan,
      key: ListItem,
      map: ReadonlyMap<ListItem, CheckboxSpan>,
    ) => void,
    thisArg?: unknown,
  ): void {
    for (const [item, checkbox] of this.entries()) callback.call(thisArg, checkbox, item, this);
  }
}
