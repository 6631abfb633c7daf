// Issue 15: when a plan changes only in checkbox values and RALPH_STATUS values (the agent
// checks its box; the engine checks a box and keeps the status in step), the engine derives the
// new text's analysis from the last one instead of parsing it. The derived analysis must be
// exactly what parsing gives: the same tasks, checkboxes, status and requirements, and where its
// status section is known without parsing, the same entries. Checked on chains of edits of
// realistic and generated plans: edits the engine makes, edits an agent makes, and stray
// characters changed anywhere (which must be parsed, or derived exactly).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LazyPlanAnalysis } from "../../packages/core/src/plan/lazy-plan-analysis.js";
import { PlanAnalyses } from "../../packages/core/src/plan/plan-analyses.js";
import { analyzePlan, type PlanAnalysis } from "../../packages/core/src/plan/plan-analysis.js";
import type {
  StatusEntry,
  StatusSection,
  StatusValue,
} from "../../packages/core/src/plan/status-entries.js";
import { realisticPlans } from "./identity-corpus.js";
import { planShaped } from "./markdown-arbitraries.js";

const SEED = 20_261_215;

/** Status sections written the ways users write them, to put into generated plans. */
const statusSection = fc.constantFrom(
  "## RALPH_STATUS\n\n- STATUS: IN_PROGRESS\n- completion_indicators: 0\n- current_task: none\n",
  "## RALPH_STATUS\n**CURRENT_TASK**: `TASK-1`\nEXIT_SIGNAL:\ncompletion_indicators: 3  \n",
  "## Status\n\n- **EXIT_SIGNAL:** false\n- current_task:\n  - completion_indicators: 12\n",
  "# RALPH_STATUS\n\n1. current_task: TASK-2\n2. completion_indicators: 1\n\ntext after\n",
  "## RALPH_STATUS\n\n- [ ] current_task: TASK-1\n- completion_indicators: 2\n",
  "",
);

const plans = fc
  .tuple(planShaped, statusSection, fc.boolean())
  .map(([plan, status, first]) => (first ? `${status}\n${plan}` : `${plan}\n${status}`));

/** One edit of a plan, chosen by numbers drawn in advance. */
interface EditChoice {
  readonly kind: "engine" | "agent boxes" | "agent status" | "stray character";
  readonly picks: readonly number[];
  readonly insert: string;
}

const editChoice: fc.Arbitrary<EditChoice> = fc.record({
  kind: fc.constantFrom("engine", "engine", "agent boxes", "agent status", "stray character"),
  picks: fc.array(fc.nat(), { minLength: 4, maxLength: 8 }),
  insert: fc.constantFrom(
    "",
    "TASK-7",
    "TASK-10",
    "**x**",
    "`y`",
    "  ",
    "true",
    "12",
    "a: b",
    "<!--",
    "*",
    "\n",
    "x",
    "#",
    "-",
    "]",
  ),
});

function pick<Item>(items: readonly Item[], seed: number | undefined): Item | undefined {
  return items.length === 0 ? undefined : items[(seed ?? 0) % items.length];
}

/** The plan text after one edit, or `null` when the edit does not apply to this plan. */
function edited(
  analyses: PlanAnalyses,
  analysis: PlanAnalysis,
  text: string,
  choice: EditChoice,
): string | null {
  const [first = 0, second = 0, third = 0, ...rest] = choice.picks;
  const ids = analysis.plan.tasks.map((task) => task.id);
  const bom = analysis.tree.bom;
  switch (choice.kind) {
    case "engine": {
      const check = rest.map((seed) => pick(ids, seed)).filter((id) => id !== undefined);
      const currentTask = second % 3 === 0 ? null : (pick(ids, third) ?? null);
      return analyses.edit(analysis, text, {
        check: first % 2 === 0 ? check : [],
        uncheck: first % 2 === 1 ? check.slice(0, 1) : [],
        status: { completionIndicators: second % 120, currentTask },
      });
    }
    case "agent boxes": {
      let body = analysis.tree.body;
      for (const seed of [first, ...rest]) {
        const box = pick(analysis.tasks, seed)?.checkbox;
        if (box === undefined) return null;
        const value = pick([" ", "x", "X"], seed >> 2) ?? " ";
        body = body.slice(0, box.start) + value + body.slice(box.end);
      }
      return bom + body;
    }
    case "agent status": {
      const entry = pick(analysis.statusSection?.entries ?? [], first);
      if (entry === undefined) return null;
      const body = analysis.tree.body;
      const end = entry.valueStart + ((second % 3) % (entry.valueEnd - entry.valueStart + 1));
      return bom + body.slice(0, entry.valueStart) + choice.insert + body.slice(end);
    }
    case "stray character": {
      const body = analysis.tree.body;
      if (body.length === 0) return null;
      const at = first % body.length;
      return bom + body.slice(0, at) + (choice.insert.charAt(0) || "x") + body.slice(at + 1);
    }
  }
}

/** An entry as text: what every analysis knows of it. */
function asText(entry: StatusValue): StatusValue {
  const { key, normalizedKey, value, valueStart, valueEnd, needsSpace, lineStart, lineEnd } = entry;
  return { key, normalizedKey, value, valueStart, valueEnd, needsSpace, lineStart, lineEnd };
}

/** Entries with the list item each is in told by where the item lies. */
function withoutNodes(entries: readonly StatusEntry[]) {
  return entries.map(({ item, ...entry }) => ({
    ...entry,
    item: item?.position ?? null,
  }));
}

/** A status section with its nodes told by where they lie. */
function sectionView(section: StatusSection | null) {
  if (section === null) return null;
  return {
    line: section.heading.position?.start.line,
    end: section.heading.position?.end.offset,
    entries: withoutNodes(section.entries),
    lastItem: section.lastItem?.position ?? null,
    topLevelItems: [...section.topLevelItems].map((item) => item.position),
  };
}

function expectLikeParsed(analysis: PlanAnalysis, text: string): void {
  const parsed = analyzePlan(text);
  expect(analysis.plan).toStrictEqual(parsed.plan);
  expect(analysis.tasks).toStrictEqual(parsed.tasks);
  expect(analysis.statusEntries.map(asText)).toStrictEqual(parsed.statusEntries.map(asText));
  expect(analysis.tree.bom + analysis.tree.body).toBe(text);
  if (analysis instanceof LazyPlanAnalysis && analysis.knownStatusSection !== undefined) {
    expect(sectionView(analysis.knownStatusSection)).toStrictEqual(
      sectionView(parsed.statusSection),
    );
  }
}

function errorOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

const tally = { steps: 0, derived: 0 };

/** Runs a chain of edits through one memo, as the engine does; each result is checked. */
function editsAlike(start: string, choices: readonly EditChoice[]): boolean {
  const analyses = new PlanAnalyses();
  if (errorOf(() => analyzePlan(start)) !== null) return true;
  let text = start;
  let analysis = analyses.analyze(text);
  for (const choice of choices) {
    const next = edited(analyses, analysis, text, choice);
    if (next === null) continue;
    const error = errorOf(() => analyzePlan(next));
    if (error !== null) {
      expect(errorOf(() => analyses.analyze(next))).toBe(error);
      continue;
    }
    analysis = analyses.analyze(next);
    text = next;
    tally.steps += 1;
    if (analysis instanceof LazyPlanAnalysis) tally.derived += 1;
    expectLikeParsed(analysis, text);
  }
  return true;
}

describe("a plan analysis derived from an edit is the one parsing gives", () => {
  it("on chains of edits of generated plans", { timeout: 120_000 }, () => {
    fc.assert(fc.property(plans, fc.array(editChoice, { maxLength: 8 }), editsAlike), {
      seed: SEED,
      numRuns: 800,
    });
    // Most edits the engine and an agent make are derived, not parsed.
    expect(tally.derived).toBeGreaterThan(tally.steps * 0.3);
  });

  it("on chains of edits of realistic plans", { timeout: 60_000 }, () => {
    const texts = realisticPlans().map((entry) => entry.text);
    fc.assert(
      fc.property(fc.constantFrom(...texts), fc.array(editChoice, { maxLength: 6 }), editsAlike),
      { seed: SEED, numRuns: 60 },
    );
  });

  it("derives the engine's edit and an agent's checked box without parsing", () => {
    const [, , plan = ""] = realisticPlans().map((entry) => entry.text);
    const analyses = new PlanAnalyses();
    const first = analyses.analyze(plan);
    const open = first.plan.tasks.filter((task) => !task.done);
    const engine = analyses.edit(first, plan, {
      check: [open[0]?.id ?? ""],
      status: { currentTask: open[1]?.id ?? null, completionIndicators: 7 },
    });
    const afterEngine = analyses.analyze(engine);
    expect(afterEngine).toBeInstanceOf(LazyPlanAnalysis);
    const box = afterEngine.tasks.find((located) => located.task.id === open[1]?.id)?.checkbox;
    const agent = `${engine.slice(0, box?.start)}x${engine.slice(box?.end)}`;
    const afterAgent = analyses.analyze(agent);
    expect(afterAgent).toBeInstanceOf(LazyPlanAnalysis);
    expect(afterAgent.plan.tasks.find((task) => task.id === open[1]?.id)?.done).toBe(true);
    expect(afterAgent.plan.status?.completionIndicators).toBe(7);
    expectLikeParsed(afterAgent, agent);
  });
});
