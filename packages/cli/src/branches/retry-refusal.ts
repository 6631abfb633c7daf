import type { KeptWork } from "@loop/core";
import type { PlanTask } from "./plan-tasks.js";

/**
 * Why kept work cannot be retried, or `null` when it can: its task must be an open task of the
 * plan. Pure.
 *
 * @param work - the kept work.
 * @param tasks - the plan's tasks.
 * @param plan - the plan's name, for the message.
 * @returns the refusal, saying what to do instead.
 */
export function retryRefusal(
  work: KeptWork,
  tasks: readonly PlanTask[],
  plan: string,
): string | null {
  const task = tasks.find((entry) => entry.id === work.taskId);
  if (task === undefined) {
    return `${work.branch} holds the work of ${work.taskId}, which is not a task of ${plan}: nothing would run it. Add the task to the plan (or name its plan with --plan <file>), or \`loop branches discard ${work.branch}\`.`;
  }
  if (task.done) {
    return `${work.branch} holds the work of ${work.taskId}, which is done in ${plan} (its box is checked): there is nothing to retry. Uncheck its box to run it again, or \`loop branches discard ${work.branch}\`.`;
  }
  return null;
}
