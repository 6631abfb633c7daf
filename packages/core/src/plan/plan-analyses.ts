import { deepFreeze } from "./deep-freeze.js";
import { deriveAnalysis } from "./derive-analysis.js";
import type { ParsePlanOptions } from "./parsed-plan.js";
import { analyzePlan, type PlanAnalysis } from "./plan-analysis.js";
import { textChanges } from "./text-changes.js";
import { applySplices } from "./text-splice.js";
import { type PlanEdit, planEditSplices } from "./update-plan.js";

/**
 * How many analyses a {@link PlanAnalyses} keeps: the plan as the agent left it and as the
 * engine wrote it — the next iteration starts from the latter. An analysis holds the whole
 * tree, so no more are kept.
 */
const MAX_ENTRIES = 2;

/**
 * The engine's memo of plan analyses (tree, outline, tasks with their checkboxes, status): a
 * plan text is parsed at most once while it is kept, whether the engine reads it, edits it or
 * reads it again after its own write; and a text that differs from the last one kept only by
 * checkbox values and RALPH_STATUS values (the agent checked its box; the engine checked a box
 * and kept the status in step) is not parsed at all: its analysis is derived from the kept one
 * (see `deriveAnalysis`). Keyed by the optional headings, then the text; two are kept, and
 * the one analysed first goes first. The parsed plan of each analysis is frozen, as
 * `createPlanCache`'s results are, since every caller shares it (the tree is not: it is the
 * engine's own).
 */
export class PlanAnalyses {
  readonly #byHeadings = new Map<string, Map<string, PlanAnalysis>>();
  #size = 0;
  readonly #order: { readonly headings: string; readonly text: string }[] = [];

  /**
   * The analysis of `markdown`, parsed now or kept from an earlier call with the same text.
   *
   * @param markdown - the plan text.
   * @param options - the file name (for errors) and the optional headings.
   * @throws {PlanParseError} as `analyzePlan` does; errors are not kept.
   */
  analyze(markdown: string, options?: ParsePlanOptions | null): PlanAnalysis {
    const headings = headingsKey(options?.optionalHeadings);
    const texts = this.#byHeadings.get(headings);
    const kept = texts?.get(markdown);
    if (kept !== undefined) return kept;
    return this.#keep(
      headings,
      markdown,
      this.#derive(headings, markdown, options) ?? analyzePlan(markdown, options),
    );
  }

  /**
   * {@link updatePlan}'s edit of an analysed plan: the edited text, whose analysis is derived
   * from `analysis` and kept when the edit only sets checkboxes and status values, so that
   * reading the text back does not parse it.
   *
   * @param analysis - the analysis of `markdown` (one this memo gave).
   * @param markdown - the plan text.
   * @param edit - as for `updatePlan`.
   * @param options - the file name and optional headings `markdown` was analysed with.
   * @returns the edited text (`markdown` itself when nothing changes).
   * @throws {PlanUpdateError} as `updatePlan` does.
   */
  edit(
    analysis: PlanAnalysis,
    markdown: string,
    edit: PlanEdit,
    options?: ParsePlanOptions | null,
  ): string {
    const splices = planEditSplices(analysis, edit, options);
    if (splices.length === 0) return markdown;
    const body = applySplices(analysis.tree.body, splices);
    const text = analysis.tree.bom + body;
    const derived = deriveAnalysis(analysis, splices, body, options);
    const headings = headingsKey(options?.optionalHeadings);
    if (derived !== null && this.#byHeadings.get(headings)?.has(text) !== true) {
      this.#keep(headings, text, derived);
    }
    return text;
  }

  /** The analysis of `markdown` derived from the last one kept, when it differs little. */
  #derive(
    headings: string,
    markdown: string,
    options: ParsePlanOptions | null | undefined,
  ): PlanAnalysis | null {
    const last = this.#order.findLast((entry) => entry.headings === headings);
    const base = last === undefined ? undefined : this.#byHeadings.get(headings)?.get(last.text);
    if (last === undefined || base === undefined) return null;
    const { bom } = base.tree;
    if (!markdown.startsWith(bom) || markdown.charCodeAt(bom.length) === 0xfeff) return null;
    const body = markdown.slice(bom.length);
    const splices = textChanges(base.tree.body, body);
    return splices === null ? null : deriveAnalysis(base, splices, body, options);
  }

  #keep(headings: string, markdown: string, analysis: PlanAnalysis): PlanAnalysis {
    let texts = this.#byHeadings.get(headings);
    deepFreeze(analysis.plan);
    if (texts === undefined) {
      texts = new Map();
      this.#byHeadings.set(headings, texts);
    }
    texts.set(markdown, analysis);
    this.#order.push({ headings, text: markdown });
    this.#size += 1;
    while (this.#size > MAX_ENTRIES) this.#dropOldest();
    return analysis;
  }

  #dropOldest(): void {
    const oldest = this.#order.shift();
    if (oldest === undefined) return;
    const texts = this.#byHeadings.get(oldest.headings);
    if (texts?.delete(oldest.text) === true) this.#size -= 1;
    if (texts?.size === 0) this.#byHeadings.delete(oldest.headings);
  }
}

function headingsKey(optionalHeadings: readonly string[] | undefined): string {
  return optionalHeadings === undefined ? "default" : JSON.stringify(optionalHeadings);
}
