import {
  createDecisionEvent,
  createStateManager,
  formatTimestamp,
  type KeptWork,
  type LoopConfig,
  updateMetrics,
  type Workspaces,
} from "@loop/core";
import { errorMessage } from "../error-message.js";
import type { Project } from "../project.js";
import { logOneEvent } from "../store/log-one-event.js";
import { forgetTask } from "./forget-task.js";

/** What {@link retryKept} did. */
export interface RetriedTask {
  /** The task's branch now, holding the kept work, in its working copy. */
  readonly branch: string;
  /** The working copy's path. */
  readonly path: string;
  /** Whether the task was given up in the terminal's state. */
  readonly wasGivenUp: boolean;
  /** The attempts it had used, now forgotten. */
  readonly attempts: number;
}

/**
 * Makes a task run again from its kept work, at the next `loop run --parallel`: its working
 * copy opened from the kept branch (which the next run's recovery reopens, as an open task's),
 * then its given-up status and attempts forgotten in the terminal's state, and a
 * `task_retried` event logged. Call it holding the loop's locks. The working copy comes first:
 * if the state cannot be written, the next run keeps the work on a branch again.
 *
 * @param input - the project, its config, the workspaces, the kept work and its task, and
 *   the plan's text; `now` and `warn` for the state and the logs.
 * @throws what the workspaces or the state store throw.
 */
export async function retryKept(input: {
  readonly project: Project;
  readonly config: LoopConfig;
  readonly workspaces: Workspaces;
  readonly work: KeptWork;
  readonly task: { readonly id: string; readonly title: string };
  readonly planText: string;
  readonly now: number;
  readonly warn: (message: string) => void;
}): Promise<RetriedTask> {
  const { project, work, warn } = input;
  const workspace = await input.workspaces.open(input.task, {
    planText: input.planText,
    from: work.branch,
  });
  const manager = createStateManager(project.store);
  const { state, recovery } = await manager.readState(project.terminalId);
  if (recovery !== null) warn(`loop_state.json was unusable (${recovery.problem})`);
  const now = formatTimestamp(input.now);
  const forgotten = state === null ? null : forgetTask(state, work.taskId, now);
  if (forgotten !== null && (forgotten.wasGivenUp || forgotten.attempts > 0)) {
    await manager.writeState(project.terminalId, forgotten.state);
    await updateMetrics(
      project.store,
      project.terminalId,
      {
        iterations: forgotten.state.loop_metadata.iterations,
        tasks_completed: forgotten.state.completed_tasks.length,
        tasks_failed: forgotten.state.failed_tasks.length,
        last_update: now,
      },
      { onError: (error) => warn(`the metrics are not updated: ${errorMessage(error)}`) },
    );
  }
  const retried: RetriedTask = {
    branch: workspace.branch,
    path: workspace.path,
    wasGivenUp: forgotten?.wasGivenUp ?? false,
    attempts: forgotten?.attempts ?? 0,
  };
  const event = createDecisionEvent(
    project.terminalId,
    "task_retried",
    {
      task_id: work.taskId,
      from_branch: work.branch,
      branch: retried.branch,
      was_given_up: retried.wasGivenUp,
      attempts: retried.attempts,
    },
    now,
  );
  await logOneEvent(project, project.resolve(input.config.logging.decision_log), event, warn);
  return retried;
}
