import type { Nodes, Paragraph, PhrasingContent } from "mdast";
import { parseInline } from "./fast-inline.js";
import type { InlineSegment } from "./inline-pieces.js";
import type { LineTable } from "./line-table.js";

/** A node's position. */
type Position = NonNullable<Paragraph["position"]>;

/** A constructor that returns the object it is given, so that a subclass can add fields to any object. */
class Stamp {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of the class (see LazyChildren).
    return target;
  }
}

/** What a lazy paragraph needs to build its children, and what it already knows. */
interface LazyState {
  children: PhrasingContent[] | undefined;
  readonly plain: string;
  readonly lines: LineTable;
  /** The paragraph's lines, or `null` for one line, kept as numbers (`start`, `end`, `line`). */
  readonly segments: readonly InlineSegment[] | null;
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly task: boolean;
}

/**
 * Keeps a lazy paragraph's state in a private field of the paragraph object itself: private
 * fields are invisible to every reader of the object (its keys, `JSON.stringify`, deep
 * equality), and its prototype stays `Object.prototype`.
 */
class LazyChildren extends Stamp {
  readonly #state: LazyState;

  constructor(target: object, state: LazyState) {
    super(target);
    this.#state = state;
  }

  /** The state of a lazy paragraph, or `undefined` for any other object. */
  static of(node: object): LazyState | undefined {
    return #state in node ? (node as LazyChildren).#state : undefined;
  }
}

/** The one accessor pair of every lazy paragraph's `children` (sharing it keeps creation fast). */
const childrenProperty: PropertyDescriptor = {
  get(this: Paragraph): PhrasingContent[] {
    const state = LazyChildren.of(this);
    if (state === undefined) return [];
    const segments = state.segments ?? [{ start: state.start, end: state.end, line: state.line }];
    state.children ??= buildChildren(state.lines, segments, state.task, this.position);
    return state.children;
  },
  set(this: Paragraph, value: PhrasingContent[]): void {
    const state = LazyChildren.of(this);
    if (state !== undefined) state.children = value;
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
  const node = { type: "paragraph", position } as Paragraph;
  const one = segments.length === 1 ? segments[0] : undefined;
  new LazyChildren(node, {
    children: undefined,
    plain,
    lines,
    segments: one === undefined ? segments : null,
    start: one?.start ?? 0,
    end: one?.end ?? 0,
    line: one?.line ?? 0,
    task,
  });
  Object.defineProperty(node, "children", childrenProperty);
  return node;
}

/**
 * The plain text of a paragraph made by {@link lazyParagraph} whose children were not built
 * (or set) yet, without building them; `undefined` for any other node.
 *
 * @param node - a node.
 */
export function lazyPlainText(node: Nodes): string | undefined {
  const state = LazyChildren.of(node);
  return state !== undefined && state.children === undefined ? state.plain : undefined;
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
