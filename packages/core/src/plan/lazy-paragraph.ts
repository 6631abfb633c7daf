import type { Nodes, Paragraph, PhrasingContent } from "mdast";
import { parseInline } from "./fast-inline.js";
import type { InlineSegment } from "./inline-pieces.js";
import type { LineTable } from "./line-table.js";

/** A node's position. */
type Position = NonNullable<Paragraph["position"]>;

/** What a lazy paragraph is before its state is added: `{ type: "paragraph", position }`. */
interface ParagraphShell {
  type: "paragraph";
  position: Position;
}

/**
 * Makes the plain object a lazy paragraph starts as (its prototype is `Object.prototype`, as a
 * literal's is). A constructor rather than a literal, because V8 then keeps room inside the
 * object for the private fields {@link LazyChildren} adds: a literal's object would hold them
 * in a second, separate array. A large plan has one lazy paragraph per task, which all live
 * until the parse ends, and every object among them is one more for the garbage collector to
 * copy while they are young.
 */
const ParagraphShell = function (this: ParagraphShell, position: Position): void {
  this.type = "paragraph";
  this.position = position;
} as unknown as new (
  position: Position,
) => ParagraphShell;
ParagraphShell.prototype = Object.prototype;

/** A constructor that returns the object it is given, so that a subclass can add fields to any object. */
class Stamp {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of the class (see LazyChildren).
    return target;
  }
}

/**
 * Keeps a lazy paragraph's state, what it needs to build its children and what it already
 * knows, in private fields of the paragraph object itself: private fields are invisible to
 * every reader of the object (its keys, `JSON.stringify`, deep equality), and its prototype
 * stays `Object.prototype`.
 */
class LazyChildren extends Stamp {
  #children: PhrasingContent[] | undefined;
  readonly #plain: string;
  readonly #lines: LineTable;
  /** The paragraph's lines, or `null` for one line, kept as numbers (`start`, `end`, `line`). */
  readonly #segments: readonly InlineSegment[] | null;
  readonly #start: number;
  readonly #end: number;
  readonly #line: number;
  readonly #task: boolean;

  constructor(
    target: ParagraphShell,
    plain: string,
    lines: LineTable,
    segments: readonly InlineSegment[],
    task: boolean,
  ) {
    super(target);
    const one = segments.length === 1 ? segments[0] : undefined;
    this.#children = undefined;
    this.#plain = plain;
    this.#lines = lines;
    this.#segments = one === undefined ? segments : null;
    this.#start = one?.start ?? 0;
    this.#end = one?.end ?? 0;
    this.#line = one?.line ?? 0;
    this.#task = task;
  }

  /** The children of a lazy paragraph, built on the first call (an empty list for any other object). */
  static children(node: Paragraph): PhrasingContent[] {
    if (!(#plain in node)) return [];
    const state = node as unknown as LazyChildren;
    if (state.#children === undefined) {
      const segments = state.#segments ?? [
        { start: state.#start, end: state.#end, line: state.#line },
      ];
      state.#children = buildChildren(state.#lines, segments, state.#task, node.position);
    }
    return state.#children;
  }

  /** Sets the children of a lazy paragraph (nothing for any other object). */
  static setChildren(node: Paragraph, value: PhrasingContent[]): void {
    if (#plain in node) (node as unknown as LazyChildren).#children = value;
  }

  /** Whether a node is a lazy paragraph. */
  static isLazy(node: object): boolean {
    return #plain in node;
  }

  /** The plain text of a lazy paragraph whose children were neither built nor set, else `undefined`. */
  static plainText(node: object): string | undefined {
    if (!(#plain in node)) return undefined;
    const state = node as LazyChildren;
    return state.#children === undefined ? state.#plain : undefined;
  }
}

/** The one accessor pair of every lazy paragraph's `children` (sharing it keeps creation fast). */
const childrenProperty: PropertyDescriptor = {
  get(this: Paragraph): PhrasingContent[] {
    return LazyChildren.children(this);
  },
  set(this: Paragraph, value: PhrasingContent[]): void {
    LazyChildren.setChildren(this, value);
  },
  enumerable: true,
  configurable: true,
};

/**
 * A paragraph node the scanner read, whose phrasing children are built when first read (and
 * kept), and whose plain text is known at once (see {@link lazyPlainText}). Reading a plan
 * needs the text of every task, not its nodes: building them only on demand spares most of
 * the allocations of a large plan. To every reader `children` is an ordinary enumerable
 * property (an accessor pair that keeps what it builds or is given), holding exactly the nodes
 * mdast-util-from-markdown gives.
 *
 * @param position - the paragraph's position.
 * @param plain - what `plainText` gives for the paragraph.
 * @param lines - the text's lines.
 * @param segments - the paragraph's lines (see `parseInline`).
 * @param task - whether it is a task item's first paragraph: its text starts after the
 *   checkbox, and loses the space after it (as mdast-util-gfm-task-list-item does).
 * @returns the paragraph.
 */
export function lazyParagraph(
  position: Position,
  plain: string,
  lines: LineTable,
  segments: readonly InlineSegment[],
  task: boolean,
): Paragraph {
  const node = new ParagraphShell(position);
  new LazyChildren(node, plain, lines, segments, task);
  return node as unknown as Paragraph;
}

/**
 * Gives a paragraph made by {@link lazyParagraph} its `children` accessor, once it is known to
 * stay in the tree: defining it is the costliest step of making one, and most are dropped
 * with the items of a deferred list first (see `deferListItems`), needing only their plain
 * text. Any other node is left as it is.
 *
 * @param node - a node of the tree.
 * @returns whether the node is a lazy paragraph.
 */
export function completeLazyParagraph(node: Nodes): boolean {
  if (!LazyChildren.isLazy(node)) return false;
  if (!Object.hasOwn(node, "children")) Object.defineProperty(node, "children", childrenProperty);
  return true;
}

/**
 * The plain text of a paragraph made by {@link lazyParagraph} whose children were not built
 * (or set) yet, without building them; `undefined` for any other node.
 *
 * @param node - a node.
 */
export function lazyPlainText(node: Nodes): string | undefined {
  return LazyChildren.plainText(node);
}

function buildChildren(
  lines: LineTable,
  segments: readonly InlineSegment[],
  task: boolean,
  position: Position | undefined,
): PhrasingContent[] {
  const children = parseInline(lines, segments, task ? 93 : null) ?? [];
  const head = children[0];
  if (task && head?.type === "text" && head.position !== undefined && position) {
    // What mdast-util-gfm-task-list-item does: the space after the checkbox is dropped.
    head.value = head.value.slice(1);
    if (head.value === "") children.shift();
    else head.position.start = { ...position.start };
  }
  return children;
}
