import type { SelectableTask } from "./task-selection.js";

/** A task as parallel scheduling needs it: a {@link SelectableTask}, with its place in order. */
export interface SchedulableTask extends SelectableTask {
  /**
   * Ids of earlier tasks it comes after (a markdown plan's order, see `taskDependencies`): each
   * must be settled — done, or given up after its attempts — and so must what it comes after.
   * A task given up does not hold back what comes after it, as in a serial run. A later task
   * listed here is never settled in time: the task waits.
   */
  readonly after?: readonly string[] | undefined;
}

/** The input of {@link scheduleTasks}. */
export interface ScheduleInput<Task extends SchedulableTask> {
  /** The tasks in plan order. */
  readonly tasks: readonly Task[];
  /** Ids of the tasks a worker is running now. */
  readonly running: ReadonlySet<string>;
  /** How many more tasks may start now (idle workers, within the shared limits). */
  readonly slots: number;
  /** Attempts used per task id. */
  readonly attempts: Readonly<Record<string, number>>;
  /** Ids already given up. */
  readonly failedTaskIds: readonly string[];
  /** `tasks.max_attempts`. */
  readonly maxAttempts: number;
}

/** A task to start, with the attempt it is. */
export interface ScheduledTask<Task extends SchedulableTask> {
  /** The task. */
  readonly task: Task;
  /** Which attempt this is, from 1. */
  readonly attempt: number;
}

/** What {@link scheduleTasks} decided. */
export interface Schedule<Task extends SchedulableTask> {
  /** The tasks to start now, in plan order, at most `slots`. */
  readonly start: readonly ScheduledTask<Task>[];
  /** Open tasks that cannot start yet: what they wait for is running or not settled. */
  readonly waiting: readonly string[];
  /** Open tasks that can never run: given up, or a dependency was given up or does not exist. */
  readonly blocked: readonly string[];
}

/**
 * Which tasks to start now when several workers run at once (`loop run --parallel N`): the
 * first open tasks in plan order whose dependencies are done (a prd.json story's
 * `dependencies`) and whose predecessors are settled (a markdown plan's order, see
 * `taskDependencies`), not already running, not given up — at most `slots` of them. With
 * one slot and nothing running this picks what {@link selectNextTask} picks. Pure: the same
 * input gives the same schedule.
 *
 * @example
 * ```ts
 * const { start } = scheduleTasks({
 *   tasks, running: new Set(["TASK-2"]), slots: 2, attempts: {}, failedTaskIds: [], maxAttempts: 3,
 * });
 * ```
 *
 * @param input - the tasks, the running set, the free slots and the attempts so far.
 * @returns the tasks to start, and what waits or can never run.
 */
export function scheduleTasks<Task extends SchedulableTask>(
  input: ScheduleInput<Task>,
): Schedule<Task> {
  const byId = new Map<string, Task>();
  for (const task of input.tasks) if (!byId.has(task.id)) byId.set(task.id, task);
  const givenUp = new Set(input.failedTaskIds);
  const attemptsOf = (id: string) => input.attempts[id] ?? 0;
  const isGivenUp = (task: SelectableTask) =>
    !task.done && (givenUp.has(task.id) || attemptsOf(task.id) >= input.maxAttempts);
  // A task is released when it is settled and so is everything it comes after: plan order
  // holds through a checked box (an open task before it still holds what follows). Read in
  // plan order, one pass, no recursion (a chain of 10,000 tasks is 10,000 deep): what a task
  // comes after is earlier in the plan, and a later one never counts as released.
  const released = new Set<string>();
  for (const task of input.tasks) {
    const settled = (task.done || isGivenUp(task)) && !input.running.has(task.id);
    if (settled && (task.after ?? []).every((id) => released.has(id))) released.add(task.id);
  }
  const isReleased = (id: string) => released.has(id);

  const start: ScheduledTask<Task>[] = [];
  const waiting: string[] = [];
  const blocked: string[] = [];
  for (const task of input.tasks) {
    if (task.done) continue;
    if (isGivenUp(task)) {
      blocked.push(task.id);
      continue;
    }
    if (input.running.has(task.id)) continue;
    const dependencies = (task.dependencies ?? []).map((id) => byId.get(id));
    if (dependencies.some((dependency) => dependency === undefined || isGivenUp(dependency))) {
      blocked.push(task.id);
      continue;
    }
    const ready =
      dependencies.every((dependency) => dependency?.done === true) &&
      (task.after ?? []).every(isReleased);
    if (ready && start.length < input.slots) {
      start.push({ task, attempt: attemptsOf(task.id) + 1 });
    } else {
      waiting.push(task.id);
    }
  }
  return { start, waiting, blocked };
}
