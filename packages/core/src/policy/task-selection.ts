/** A task as task selection needs it: a plan `Task` or a prd story mapped to one fits. */
export interface SelectableTask {
  /** The task's id. */
  readonly id: string;
  /** Whether the task is complete (its box checked, or its story passing). */
  readonly done: boolean;
  /** Optional tasks run when reached but never block completion. */
  readonly optional?: boolean | undefined;
  /** Ids of the tasks that must be done first (prd.json story dependencies). */
  readonly dependencies?: readonly string[] | undefined;
}

/** Why a task was passed over. */
export type SkipReason =
  /** It has used `tasks.max_attempts` attempts, or is already in `failed_tasks`. */
  | "failed"
  /** A dependency is not done yet. */
  | "dependency_pending"
  /** A dependency failed or does not exist, so this task cannot run. */
  | "dependency_failed";

/** A task that was passed over, and why. */
export interface SkippedTask {
  /** The task's id. */
  readonly id: string;
  /** Why it was passed over. */
  readonly reason: SkipReason;
}

/** What to run next. */
export type TaskSelection<Task extends SelectableTask = SelectableTask> =
  | {
      /** Run `task`. */
      readonly kind: "task";
      /** The first runnable task in plan order. */
      readonly task: Task;
      /** Which attempt this is, from 1. */
      readonly attempt: number;
      /** Open tasks passed over before it. */
      readonly skipped: readonly SkippedTask[];
      /** Tasks that used their attempts and are not yet in `failed_tasks`: record them as failed. */
      readonly newlyFailed: readonly string[];
    }
  | {
      /**
       * `wrap_up`: every required task is done (open optional tasks cannot run) — if the exit
       * gate is not met, run a wrap-up iteration asking the agent to verify the work and signal.
       * `none`: required tasks are open but none can run (failed, or waiting on failed tasks).
       */
      readonly kind: "wrap_up" | "none";
      /** Open tasks passed over. */
      readonly skipped: readonly SkippedTask[];
      /** Tasks that used their attempts and are not yet in `failed_tasks`: record them as failed. */
      readonly newlyFailed: readonly string[];
    };

/** The input of {@link selectNextTask}. */
export interface TaskSelectionInput<Task extends SelectableTask> {
  /** The tasks in plan order. */
  readonly tasks: readonly Task[];
  /** Attempts per task id so far (absent: none). */
  readonly attempts: Readonly<Record<string, number>>;
  /** Ids already recorded as failed (`loop_state.json`'s `failed_tasks`). */
  readonly failedTaskIds: readonly string[];
  /** `tasks.max_attempts`. */
  readonly maxAttempts: number;
}

/**
 * Picks the next task: the first task in plan order that is not done, has attempts left (fewer
 * than `tasks.max_attempts`, as the ralph-loop skill's "three attempts, then move on"), is not in
 * `failed_tasks`, and whose dependencies are all done. Optional tasks are picked when reached,
 * like any other.
 *
 * A task whose attempts are used up is reported in `newlyFailed` (the engine moves it to
 * `failed_tasks`) and skipped; a task waiting on a failed or unknown dependency can never run.
 * When nothing can run, `wrap_up` says every required task is done and `none` says required
 * work is stuck.
 *
 * @example
 * ```ts
 * const selection = selectNextTask({ tasks: plan.tasks, attempts, failedTaskIds, maxAttempts: 3 });
 * if (selection.kind === "task") run(selection.task, selection.attempt);
 * ```
 */
export function selectNextTask<Task extends SelectableTask>(
  input: TaskSelectionInput<Task>,
): TaskSelection<Task> {
  // Mapped by id only when a task has dependencies to look up.
  let byIdMap: Map<string, Task> | undefined;
  const byId = () => {
    byIdMap ??= new Map(input.tasks.map((task) => [task.id, task]));
    return byIdMap;
  };
  const recordedFailures = new Set(input.failedTaskIds);
  // Looked up in a Map: a task id sliced from the plan is no property key V8 has interned, and
  // every lookup in the record would intern it again. Most plans have no attempts at all.
  const attempts = new Map(Object.entries(input.attempts));
  const attemptsOf = (id: string) => (attempts.size === 0 ? 0 : (attempts.get(id) ?? 0));
  const isFailed = (task: SelectableTask) =>
    !task.done && (recordedFailures.has(task.id) || attemptsOf(task.id) >= input.maxAttempts);

  const newlyFailed = input.tasks
    .filter((task) => isFailed(task) && !recordedFailures.has(task.id))
    .map((task) => task.id);

  const skipped: SkippedTask[] = [];
  let requiredOpen = false;
  for (const task of input.tasks) {
    if (task.done) continue;
    if (task.optional !== true) requiredOpen = true;
    const reason = skipReason(task, byId, isFailed);
    if (reason === null) {
      return { kind: "task", task, attempt: attemptsOf(task.id) + 1, skipped, newlyFailed };
    }
    skipped.push({ id: task.id, reason });
  }
  // Reaching here with only pending dependencies means they wait, directly or not, on work that
  // can never be done: nothing can run.
  return { kind: requiredOpen ? "none" : "wrap_up", skipped, newlyFailed };
}

function skipReason(
  task: SelectableTask,
  byId: () => ReadonlyMap<string, SelectableTask>,
  isFailed: (task: SelectableTask) => boolean,
): SkipReason | null {
  if (isFailed(task)) return "failed";
  let pending = false;
  for (const dependencyId of task.dependencies ?? []) {
    const dependency = byId().get(dependencyId);
    if (dependency === undefined || isFailed(dependency)) return "dependency_failed";
    if (!dependency.done) pending = true;
  }
  return pending ? "dependency_pending" : null;
}
