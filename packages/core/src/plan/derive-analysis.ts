import { LazyPlanAnalysis } from "./lazy-plan-analysis.js";
import type { ParsedPlan, ParsePlanOptions } from "./parsed-plan.js";
import type { LocatedTask, PlanAnalysis } from "./plan-analysis.js";
import { interpretStatusEntries } from "./plan-status.js";
import {
  readStatusLine,
  type StatusEntry,
  type StatusSection,
  type StatusValue,
} from "./status-entries.js";
import type { TextSplice } from "./text-splice.js";

/**
 * The analysis of a plan edited by `splices`, derived from the analysis of the text before
 * them without parsing the new text, when the edit is one that cannot change the plan's
 * structure: checkbox values of tasks set to ` `, `x` or `X`, and RALPH_STATUS values
 * changed within their line. `null` for any other edit (a line added or removed, a character
 * changed anywhere else), which must be parsed.
 *
 * The derived analysis holds exactly what parsing the new text gives: the same tasks (those
 * whose box changed are new objects), the same status and its entries, the same
 * requirements. Its tree and outline are parsed from the new text when first read, and so is
 * its status section (the nodes a status value is added after) when a character moved.
 *
 * Items of the RALPH_STATUS and requirement sections are never tasks, so a task's box and a
 * status value each change only what they hold; no splice adds or removes a line, so no line
 * number changes.
 *
 * @param base - the analysis of the text before the edit.
 * @param splices - the edit, on `base.tree.body`; they do not overlap.
 * @param body - `base.tree.body` with the splices applied (the caller has it already).
 * @param options - the options `base` was parsed with.
 * @returns the analysis of the edited text, or `null`.
 */
export function deriveAnalysis(
  base: PlanAnalysis,
  splices: readonly TextSplice[],
  body: string,
  options?: ParsePlanOptions | null,
): PlanAnalysis | null {
  const before = base.tree.body;
  const done = new Map<number, boolean>();
  // The status lines the splices change, by where they start: the entries of a status section
  // parsed later are other objects for the same lines.
  const changedLines = new Set<number>();
  for (const splice of splices) {
    if (hasLineBreak(splice.insert) || hasLineBreak(before, splice.start, splice.end)) return null;
    const task = taskWithCheckboxAt(base.tasks, splice.start);
    if (task !== undefined && isCheckboxValue(base.tasks[task], splice)) {
      done.set(task, splice.insert !== " ");
      continue;
    }
    const entry = base.statusEntries.find(
      (candidate) => splice.start >= candidate.valueStart && splice.end <= candidate.lineEnd,
    );
    if (entry === undefined) return null;
    changedLines.add(entry.lineStart);
  }
  const moved = splices.some((splice) => splice.insert.length !== splice.end - splice.start);
  // When no character moved, every node of the earlier tree is where the new tree has it, so
  // a status section known before is known after (its changed lines read again); otherwise
  // it is parsed if it is read.
  const known = base instanceof LazyPlanAnalysis ? base.knownStatusSection : base.statusSection;
  let section: StatusSection | null | undefined;
  let entries: readonly StatusValue[] | null = base.statusEntries;
  if (!moved && known !== undefined) {
    section = known === null ? null : withEntries(known, body, changedLines);
    if (section === undefined) return null;
    entries = section?.entries ?? entries;
  } else if (moved || changedLines.size > 0) {
    entries = shiftedEntries(base.statusEntries, body, splices, changedLines);
  }
  if (entries === null) return null;
  const plan = derivedPlan(base.plan, body, done, changedLines.size > 0 ? entries : null);
  if (plan === null) return null;
  const tasks = derivedTasks(base.tasks, plan, splices);
  return new LazyPlanAnalysis(base.tree.bom, body, options, tasks, plan, entries, section);
}

/**
 * A section whose changed lines (no character of the text moved) are read again; `undefined`
 * when one cannot be (see {@link readChangedLine}).
 */
function withEntries(
  section: StatusSection,
  body: string,
  changed: ReadonlySet<number>,
): StatusSection | undefined {
  if (changed.size === 0) return section;
  const entries: StatusEntry[] = [];
  for (const entry of section.entries) {
    const next = changed.has(entry.lineStart)
      ? readChangedLine(body, entry.lineStart, entry.lineEnd)
      : entry;
    if (next === null) return undefined;
    entries.push(next === entry ? entry : { ...next, item: entry.item });
  }
  return { ...section, entries };
}

/** The entries where they lie after the splices, the lines they changed read again. */
function shiftedEntries(
  entries: readonly StatusValue[],
  body: string,
  splices: readonly TextSplice[],
  changed: ReadonlySet<number>,
): StatusValue[] | null {
  const shifted: StatusValue[] = [];
  for (const entry of entries) {
    const shift = shiftBefore(splices, entry.lineStart);
    let next: StatusValue | null = entry;
    if (changed.has(entry.lineStart)) {
      const lineEnd = entry.lineEnd + shiftBefore(splices, entry.lineEnd + 1);
      next = readChangedLine(body, entry.lineStart + shift, lineEnd);
    } else if (shift !== 0) {
      next = {
        key: entry.key,
        normalizedKey: entry.normalizedKey,
        value: entry.value,
        valueStart: entry.valueStart + shift,
        valueEnd: entry.valueEnd + shift,
        needsSpace: entry.needsSpace,
        lineStart: entry.lineStart + shift,
        lineEnd: entry.lineEnd + shift,
      };
    }
    if (next === null) return null;
    shifted.push(next);
  }
  return shifted;
}

/**
 * A changed status line read again, as text. `null` when it no longer reads as an entry, or
 * when it now ends in a space or tab: where a paragraph ends, parsing leaves trailing blanks
 * out of its last line, and this line may be that one.
 */
function readChangedLine(body: string, lineStart: number, lineEnd: number): StatusValue | null {
  if (lineEnd > lineStart && isBlank(body.charCodeAt(lineEnd - 1))) return null;
  const entry = readStatusLine(body, lineStart, lineEnd, null);
  if (entry === null) return null;
  const { item: _item, ...value } = entry;
  return value;
}

/** The parsed plan after the edit: the tasks whose box changed, the status read again. */
function derivedPlan(
  previous: ParsedPlan,
  body: string,
  done: ReadonlyMap<number, boolean>,
  entries: readonly StatusValue[] | null,
): ParsedPlan | null {
  const tasks = [...previous.tasks];
  for (const [index, value] of done) {
    const task = tasks[index];
    if (task === undefined) return null;
    if (task.done !== value) tasks[index] = { ...task, done: value };
  }
  let status = previous.status;
  if (entries !== null && status !== null) {
    const interpreted = interpretStatusEntries(entries, body, status.line);
    if (interpreted.issues.length > 0) return null;
    status = interpreted.status;
  }
  return { tasks, status, requirements: previous.requirements };
}

function derivedTasks(
  located: readonly LocatedTask[],
  plan: ParsedPlan,
  splices: readonly TextSplice[],
): LocatedTask[] {
  // Tasks and splices are both in document order: the shift grows as the splices are passed.
  const ordered = [...splices].sort((left, right) => left.start - right.start);
  let next = 0;
  let shift = 0;
  return located.map((entry, index) => {
    const offset = entry.checkbox.start;
    for (let splice = ordered[next]; splice !== undefined; splice = ordered[next]) {
      if (splice.end > offset || splice.start >= offset) break;
      shift += splice.insert.length - (splice.end - splice.start);
      next += 1;
    }
    const task = plan.tasks[index] ?? entry.task;
    if (shift === 0 && task === entry.task) return entry;
    const checkbox =
      shift === 0 ? entry.checkbox : { start: offset + shift, end: entry.checkbox.end + shift };
    return { task, checkbox };
  });
}

/** The index of the task whose checkbox starts at `offset` (tasks are in document order). */
function taskWithCheckboxAt(tasks: readonly LocatedTask[], offset: number): number | undefined {
  let low = 0;
  let high = tasks.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const start = tasks[middle]?.checkbox.start ?? 0;
    if (start === offset) return middle;
    if (start < offset) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/** How far the splices before `offset` (ending at or before it) move it. */
function shiftBefore(splices: readonly TextSplice[], offset: number): number {
  let shift = 0;
  for (const splice of splices) {
    if (splice.end <= offset && splice.start < offset) {
      shift += splice.insert.length - (splice.end - splice.start);
    }
  }
  return shift;
}

function isCheckboxValue(located: LocatedTask | undefined, splice: TextSplice): boolean {
  return (
    located !== undefined &&
    splice.end === located.checkbox.end &&
    splice.end - splice.start === 1 &&
    (splice.insert === " " || splice.insert === "x" || splice.insert === "X")
  );
}

function hasLineBreak(text: string, start = 0, end = text.length): boolean {
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 10 || code === 13) return true;
  }
  return false;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}
