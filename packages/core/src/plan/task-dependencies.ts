import type { Task } from "./task.js";

/** The marker at the end of a heading whose section's tasks may run at once. */
const PARALLEL_MARKER = /\(\s*parallel\s*\)\s*$/iu;

/**
 * Whether a heading's text marks its section as parallel: it ends with `(parallel)`, any
 * letter case (`## Endpoints (parallel)`).
 *
 * @param heading - a heading's plain text.
 * @returns whether the tasks under it may run at once.
 */
export function isParallelHeading(heading: string): boolean {
  return PARALLEL_MARKER.test(heading);
}

/**
 * The tasks each task of a markdown plan waits for, by the plan's order and its parallel
 * sections: the rule `loop run --parallel` schedules by (see docs/plan-format.md, "Parallel
 * sections").
 *
 * - A top-level task and the tasks nested under it are one *unit*, run in document order.
 * - Units run one after another, each after every unit before it, as a plan always ran,
 *   except that the units directly under one heading marked `(parallel)` do not wait for one
 *   another: each waits for the units before the section, and the units after the section
 *   wait for all of them.
 *
 * So a plan without a `(parallel)` heading runs exactly as before, one task at a time, even
 * with workers to spare. Only the latest task of each unit is listed (the ones before it are
 * waited for through it).
 *
 * @param tasks - the plan's tasks, in document order (as `parsePlan` gives them).
 * @returns each task's id mapped to the ids it waits for (an empty list for none).
 */
export function taskDependencies(tasks: readonly Task[]): Map<string, readonly string[]> {
  const dependencies = new Map<string, readonly string[]>();
  // The last task of every unit the next unit waits for, and the group being built.
  let before: readonly string[] = [];
  let group: { readonly section: string; readonly ends: string[] } | null = null;
  let unitEnd: string | null = null;
  let unitParallel = false;
  const closeUnit = () => {
    if (unitEnd === null) return;
    if (unitParallel && group !== null) group.ends.push(unitEnd);
    else before = [unitEnd];
    unitEnd = null;
  };
  for (const task of tasks) {
    if (task.parentId !== undefined && unitEnd !== null) {
      dependencies.set(task.id, [unitEnd]);
      unitEnd = task.id;
      continue;
    }
    closeUnit();
    const section = task.section;
    const parallel = section !== undefined && isParallelHeading(section);
    if (group !== null && (!parallel || group.section !== section)) {
      // The group ends: what follows waits for every unit in it.
      before = group.ends.length > 0 ? group.ends : before;
      group = null;
    }
    if (parallel && group === null) group = { section, ends: [] };
    dependencies.set(task.id, before);
    unitEnd = task.id;
    unitParallel = parallel;
  }
  return dependencies;
}
