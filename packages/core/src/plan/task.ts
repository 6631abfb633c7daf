/**
 * Where a task's id came from: `"explicit"` when the item starts with an id such as
 * `TASK-001`, `"derived"` when the id was made from the item's title.
 */
export type TaskIdSource = "explicit" | "derived";

/**
 * One task of a markdown plan: a GFM task-list item (`- [ ] …`, `* [x] …`, `1. [X] …`)
 * that is not in a code block, raw HTML, a block quote, the RALPH_STATUS section or a
 * requirement section (and, when the plan has a `Tasks` heading, is in that section or
 * under an optional heading). See `docs/plan-format.md`.
 */
export interface Task {
  /**
   * The task's id: the explicit id at the start of the item (`TASK-001`), else an id
   * derived from the title (`fix-the-login-bug`). Unique within the plan.
   */
  readonly id: string;
  /** The item's plain text after the id and its separator, whitespace collapsed. */
  readonly title: string;
  /** Whether the box is checked (`[x]` or `[X]`). */
  readonly done: boolean;
  /** 1-based line of the list item's start (its bullet). */
  readonly line: number;
  /** 1-based column of the list item's start, in UTF-16 code units. */
  readonly column: number;
  /** 1-based line where the list item ends, nested content included. */
  readonly endLine: number;
  /** Number of task items enclosing this one: 0 for a top-level task. */
  readonly depth: number;
  /** Id of the nearest enclosing task item; absent for a top-level task. */
  readonly parentId?: string;
  /** Whether the task is under an optional heading (run when reached, never blocking). */
  readonly optional: boolean;
  /** Whether {@link Task.id} was written in the plan or derived from the title. */
  readonly idSource: TaskIdSource;
  /** Text of the nearest heading above the task; absent when there is none. */
  readonly section?: string;
}
