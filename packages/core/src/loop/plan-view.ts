import type { PlanAnalyses } from "../plan/plan-analyses.js";
import type { PlanAnalysis } from "../plan/plan-analysis.js";
import type { PlanSource } from "../plan/plan-source.js";
import type { PlanStatus } from "../plan/plan-status.js";
import { parsePrd } from "../plan/prd/parse-prd.js";
import type { Prd } from "../plan/prd/prd.js";
import { updatePrd } from "../plan/prd/update-prd.js";
import type { Requirement } from "../plan/requirements.js";
import type { Task } from "../plan/task.js";

/** A task as the loop runs it: a plan task, or a prd story seen as one (with dependencies). */
export type LoopTask = Task & { readonly dependencies?: readonly string[] };

/** The plan as one iteration sees it, whatever its format. */
export interface PlanView {
  /** The text read from the source. */
  readonly text: string;
  /** The tasks in plan order. */
  readonly tasks: readonly LoopTask[];
  /** The markdown plan's RALPH_STATUS section; `null` for a prd or a plan without one. */
  readonly status: PlanStatus | null;
  /** The markdown plan's requirements; a prd's acceptance criteria of passing stories are met. */
  readonly requirements: readonly Requirement[];
  /** The parsed prd.json, when the plan is one. */
  readonly prd: Prd | null;
  /** The markdown plan's analysis (kept, so an edit does not parse it again); `null` for a prd. */
  readonly analysis: PlanAnalysis | null;
}

/** Whether a plan source holds a prd.json rather than a markdown plan. */
export function isPrdSource(source: PlanSource): boolean {
  return source.path.toLowerCase().endsWith(".json");
}

/**
 * A prd.json's stories as the loop runs them: one task per story, `done` when it passes, with
 * its dependencies, and its 1-based position in the story list as its line.
 *
 * @param prd - a parsed prd.json.
 * @returns the tasks in story order.
 */
export function storyTasks(prd: Prd): LoopTask[] {
  return prd.stories.map(storyAsTask);
}

function storyAsTask(story: Prd["stories"][number], index: number): LoopTask {
  return {
    id: story.id,
    title: story.title,
    done: story.passes,
    line: index + 1,
    column: 1,
    endLine: index + 1,
    depth: 0,
    optional: false,
    idSource: story.derivedId ? "derived" : "explicit",
    dependencies: story.dependencies,
  };
}

/**
 * Reads and parses the plan (markdown through the kept analyses, so a text is parsed once, or
 * prd.json). Throws the parsers' errors.
 */
export async function readPlanView(
  source: PlanSource,
  analyses: PlanAnalyses,
  optionalHeadings: readonly string[],
): Promise<PlanView> {
  const text = await source.read();
  if (isPrdSource(source)) {
    const prd = parsePrd(text, { file: source.path });
    return { text, tasks: storyTasks(prd), status: null, requirements: [], prd, analysis: null };
  }
  const analysis = analyses.analyze(text, { file: source.path, optionalHeadings });
  const parsed = analysis.plan;
  return {
    text,
    // A copy of the kept, frozen list (its tasks stay frozen): V8 walks a frozen array several
    // times slower (`filter`, `every`, indexing), and the engine walks this one many times.
    tasks: [...parsed.tasks],
    status: parsed.status,
    requirements: parsed.requirements,
    prd: null,
    analysis,
  };
}

/** What the engine changes in the plan after an iteration. */
export interface PlanChanges {
  /** Tasks the executor reported complete whose boxes are still open. */
  readonly complete: readonly string[];
  /** RALPH_STATUS values to keep in step (markdown plans with the section only). */
  readonly status: { readonly completionIndicators: number; readonly currentTask: string | null };
}

/**
 * The plan text with `changes` applied in the plan's own format — boxes checked or stories'
 * `passes` set, and the RALPH_STATUS values kept in step — changing only the characters that
 * must change. Returns the same text when nothing changes. A markdown plan's edited text has
 * its analysis kept in `analyses`, so reading it back does not parse it.
 */
export function applyPlanChanges(
  view: PlanView,
  source: PlanSource,
  changes: PlanChanges,
  analyses: PlanAnalyses,
  optionalHeadings: readonly string[],
): string {
  if (view.prd !== null) {
    if (changes.complete.length === 0) return view.text;
    const passes = Object.fromEntries(changes.complete.map((id) => [id, true]));
    return updatePrd(view.text, { passes }, { file: source.path });
  }
  const status = view.status;
  const statusChanged =
    status !== null &&
    (status.completionIndicators !== changes.status.completionIndicators ||
      status.currentTask !== changes.status.currentTask);
  if (changes.complete.length === 0 && !statusChanged) return view.text;
  if (view.analysis === null) return view.text;
  return analyses.edit(
    view.analysis,
    view.text,
    {
      check: changes.complete,
      ...(statusChanged
        ? {
            status: {
              completionIndicators: changes.status.completionIndicators,
              currentTask: changes.status.currentTask,
            },
          }
        : {}),
    },
    { file: source.path, optionalHeadings },
  );
}
