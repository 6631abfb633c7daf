import { type ExitReason, isCompletionReason } from "../policy/exit-reasons.js";
import { allRequiredTasksDone } from "../policy/gate-checks.js";
import type { LoopState } from "../state/loop-state.js";
import type { PlanView } from "./plan-view.js";

/**
 * Why a new run has nothing to do: the terminal's previous run over the same plan exited
 * complete (`all_tasks_complete`, `prd_complete`, `exit_signal`) and every required task of the
 * plan is still done. Running such a plan again then exits at once with that reason instead of
 * spending agent calls on wrap-up iterations (a new run starts its completion indicators from
 * zero). `null` when there is work: a task added or unchecked, another plan, no clean exit.
 *
 * @param stored - the terminal's state as stored, before the new run starts.
 * @param planPath - the plan the new run uses.
 * @param view - the plan as it is now.
 */
export function completedEarlier(
  stored: LoopState | null,
  planPath: string,
  view: Pick<PlanView, "tasks">,
): ExitReason | null {
  const run = stored?.run;
  if (stored === null || run === undefined || run.status !== "exited") return null;
  const reason = run.exit_reason;
  if (reason === null || !isCompletionReason(reason)) return null;
  if (stored.loop_metadata.plan_path !== planPath) return null;
  return allRequiredTasksDone(view.tasks) ? reason : null;
}

/**
 * Why a first run has nothing to do: no iteration ever ran on this terminal's state (or there
 * is none) and every required task of the plan is already checked — the user checked them, or
 * the work was done before the loop. The run exits at once, complete, calling no agent.
 * `null` when a task is open, or an earlier iteration ran (its exit is {@link completedEarlier}'s).
 *
 * @param stored - the terminal's state as stored, before the new run starts.
 * @param view - the plan as it is now.
 */
export function completeAtStart(
  stored: LoopState | null,
  view: Pick<PlanView, "tasks" | "prd">,
): ExitReason | null {
  if (stored !== null && stored.loop_metadata.iterations > 0) return null;
  if (view.tasks.length === 0 || !allRequiredTasksDone(view.tasks)) return null;
  return view.prd === null ? "all_tasks_complete" : "prd_complete";
}
