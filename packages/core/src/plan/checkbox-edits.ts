import { nearestId } from "./nearest-id.js";
import type { LocatedTask } from "./plan-analysis.js";
import type { PlanUpdateIssue } from "./plan-update-error.js";
import type { TextSplice } from "./text-splice.js";

/**
 * Turns the ids to check and uncheck into checkbox splices: each open box to check gets
 * `x` in place of its blank, each checked box to uncheck gets a space in place of its
 * `x`/`X`; a box already in the wanted state is left alone. Unknown ids (with the nearest
 * existing id suggested) and ids in both lists are reported in `issues`.
 *
 * @param tasks - the plan's tasks with their checkboxes.
 * @param check - ids of the tasks to mark done.
 * @param uncheck - ids of the tasks to mark not done.
 * @param issues - receives one issue per unknown or conflicting id.
 * @returns the splices, on the plan's body.
 */
export function checkboxSplices(
  tasks: readonly LocatedTask[],
  check: readonly string[],
  uncheck: readonly string[],
  issues: PlanUpdateIssue[],
): TextSplice[] {
  if (check.length === 0 && uncheck.length === 0) return [];
  const checkSet = new Set(check);
  const uncheckSet = new Set(uncheck);
  // One pass finds the tasks asked for; a plan of thousands is not mapped whole for one box.
  const byId = new Map<string, LocatedTask>();
  for (const located of tasks) {
    const { id } = located.task;
    if ((checkSet.has(id) || uncheckSet.has(id)) && !byId.has(id)) byId.set(id, located);
  }

  for (const id of new Set([...check, ...uncheck])) {
    if (checkSet.has(id) && uncheckSet.has(id)) {
      issues.push({
        kind: "conflicting-id",
        id,
        message: `Task id "${id}" is in both check and uncheck; give it in only one of them`,
      });
    }
    if (byId.has(id)) continue;
    const suggestion = nearestId(
      id,
      tasks.map((located) => located.task.id),
    );
    issues.push({
      kind: "unknown-id",
      id,
      message:
        suggestion === undefined
          ? `Unknown task id "${id}": the plan has no task with this id`
          : `Unknown task id "${id}": did you mean "${suggestion}"?`,
      ...(suggestion === undefined ? {} : { suggestion }),
    });
  }

  const splices: TextSplice[] = [];
  const toggle = (wanted: ReadonlySet<string>, done: boolean) => {
    for (const id of wanted) {
      const located = byId.get(id);
      if (located === undefined || located.task.done === done) continue;
      const { start, end } = located.checkbox;
      splices.push({ start, end, insert: done ? "x" : " " });
    }
  };
  toggle(checkSet, true);
  toggle(uncheckSet, false);
  return splices;
}
