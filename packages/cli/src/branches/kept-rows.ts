import type { KeptWork } from "@loop/core";
import type { PlanTask } from "./plan-tasks.js";

/**
 * Where a kept branch's task stands: `done` (its box is checked), `given up` (after its
 * attempts, in this terminal's state), `open`, or `not in plan` (not a task of the plan).
 */
export type KeptTaskStatus = "done" | "given up" | "open" | "not in plan";

/** One kept branch with what the plan and the state say of its task. */
export interface KeptRow {
  /** The branch the work is kept on. */
  readonly branch: string;
  /** The task it was for. */
  readonly taskId: string;
  /** The task's title in the plan; `null` when the task is not in it. */
  readonly title: string | null;
  /** Where the task stands. */
  readonly status: KeptTaskStatus;
  /** When the work was kept, epoch milliseconds; `null` when unknown. */
  readonly keptAt: number | null;
  /** Commits it holds beyond the main line. */
  readonly commits: number;
}

/**
 * The kept work joined with the plan's tasks and the terminal's given-up tasks. Pure.
 *
 * @param kept - the kept work, oldest first (`Workspaces.kept()`).
 * @param tasks - the plan's tasks.
 * @param givenUp - the terminal's given-up task ids (`failed_tasks`).
 * @returns one row per kept branch, in the same order.
 */
export function keptRows(
  kept: readonly KeptWork[],
  tasks: readonly PlanTask[],
  givenUp: readonly string[],
): KeptRow[] {
  return kept.map((work) => {
    const task = tasks.find((entry) => entry.id === work.taskId);
    const status: KeptTaskStatus =
      task === undefined
        ? "not in plan"
        : task.done
          ? "done"
          : givenUp.includes(task.id)
            ? "given up"
            : "open";
    return {
      branch: work.branch,
      taskId: work.taskId,
      title: task?.title ?? null,
      status,
      keptAt: work.keptAt > 0 ? work.keptAt : null,
      commits: work.commits,
    };
  });
}
