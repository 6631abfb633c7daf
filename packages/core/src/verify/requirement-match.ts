/**
 * A requirement as verification reads it. A plan `Requirement` fits:
 * `{ text, section, line, checked }`.
 */
export interface RequirementInput {
  /** The requirement's text, without its list marker or checkbox. */
  readonly text: string;
  /** The plan section it comes from (`Acceptance Criteria`, `Success Metrics`, `Constraints`). */
  readonly section?: string | undefined;
  /** Its 1-based line in the plan. */
  readonly line?: number | undefined;
  /**
   * Its checkbox: `true` when checked (`- [x]`), `false` when open, `null` or absent when the
   * item has none. A checked requirement counts as met whatever the tasks say.
   */
  readonly checked?: boolean | null | undefined;
}

/** A completed task as verification reads it. A plan `Task` fits: `{ id, title, done, … }`. */
export interface CompletedTaskInput {
  /** The task's id (`TASK-002`). */
  readonly id: string;
  /** The task's title: the text matched against requirements. */
  readonly title: string;
  /** When present and `false`, the task is not complete and is left out of matching. */
  readonly done?: boolean | undefined;
}

/**
 * One completed task ranked against one requirement. Frozen; a task with the same score
 * against several requirements may be one object shared by their candidate lists.
 */
export interface TaskCandidate<Task extends CompletedTaskInput = CompletedTaskInput> {
  /** The task, as given. */
  readonly task: Task;
  /** How well it covers the requirement: `similarity(task.title, requirement.text)`. */
  readonly score: number;
}

/** How one requirement fares against the completed tasks. */
export interface RequirementMatch<
  Requirement extends RequirementInput = RequirementInput,
  Task extends CompletedTaskInput = CompletedTaskInput,
> {
  /** The requirement, as given. */
  readonly requirement: Requirement;
  /**
   * The best score: the best single task's, or, when no single task reaches the threshold
   * but a combination of tasks does, the combination's.
   */
  readonly score: number;
  /** Whether `score` reaches the threshold. */
  readonly matched: boolean;
  /** Whether the requirement is met: `matched`, or checked in the plan (`checked: true`). */
  readonly met: boolean;
  /**
   * The task(s) behind `score`: the best single task, the combined tasks (best first) when a
   * combination meets the requirement, or none when no task shares a word with it.
   */
  readonly tasks: readonly Task[];
  /** Every completed task with a score above 0, best first (ties in input order). */
  readonly candidates: readonly TaskCandidate<Task>[];
}
