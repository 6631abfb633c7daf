import type { List, ListItem } from "mdast";
import type { TaskRecord } from "./task-records.js";

/** A constructor that returns the object it is given, so that a subclass can add fields to any object. */
class Stamp {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of the class (see DeferredItems).
    return target;
  }
}

/**
 * Keeps a deferred list's state in a private field of the list node itself: invisible to
 * every reader of the node (its keys, `JSON.stringify`, deep equality).
 */
class DeferredItems extends Stamp {
  #items: ListItem[] | undefined;
  #records: readonly TaskRecord[] | undefined;
  readonly #reread: () => ListItem[];

  constructor(target: List, records: readonly TaskRecord[], reread: () => ListItem[]) {
    super(target);
    this.#items = undefined;
    this.#records = records;
    this.#reread = reread;
  }

  /** The items of a deferred list, read again on the first call (an empty list for any other object). */
  static items(list: List): ListItem[] {
    if (!(#items in list)) return [];
    const state = list as unknown as DeferredItems;
    if (state.#items === undefined) {
      state.#items = state.#reread();
      state.#records = undefined;
    }
    return state.#items;
  }

  /** Sets the items of a deferred list (nothing for any other object). */
  static setItems(list: List, items: ListItem[]): void {
    if (!(#items in list)) return;
    const state = list as unknown as DeferredItems;
    state.#items = items;
    state.#records = undefined;
  }

  /** The task records of a deferred list whose items were neither read again nor set. */
  static records(list: object): readonly TaskRecord[] | undefined {
    return #items in list ? (list as DeferredItems).#records : undefined;
  }
}

/** The one accessor pair of every deferred list's `children`. */
const childrenProperty: PropertyDescriptor = {
  get(this: List): ListItem[] {
    return DeferredItems.items(this);
  },
  set(this: List, items: ListItem[]): void {
    DeferredItems.setItems(this, items);
  },
  enumerable: true,
  configurable: true,
};

/**
 * Drops the items of a top-level list the scanner read whole, to read them again only when
 * `children` is first read: to every reader `children` is an ordinary enumerable property
 * (an accessor pair that keeps what it reads or is given) holding exactly the items it held.
 * Reading a plan needs only the tasks of its lists, which `records` keeps: in a large plan,
 * the items of every list but the one being read can then be collected young instead of being
 * copied by every collection until the parse ends.
 *
 * @param list - the list, whose items are final.
 * @param records - the tasks of its items (see `listTaskRecords`), taken before they are dropped.
 * @param reread - reads its items again, exactly as they were.
 */
export function deferListItems(
  list: List,
  records: readonly TaskRecord[],
  reread: () => ListItem[],
): void {
  new DeferredItems(list, records, reread);
  Object.defineProperty(list, "children", childrenProperty);
}

/**
 * The task records of a list made by {@link deferListItems} whose items were not read again
 * (nor set) since; `undefined` for any other node.
 *
 * @param list - a node.
 */
export function deferredTaskRecords(list: object): readonly TaskRecord[] | undefined {
  return DeferredItems.records(list);
}
