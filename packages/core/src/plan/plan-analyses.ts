import { deepFreeze } from "./deep-freeze.js";
import type { ParsePlanOptions } from "./parsed-plan.js";
import { analyzePlan, type PlanAnalysis } from "./plan-analysis.js";

/**
 * How many analyses a {@link PlanAnalyses} keeps: the plan as the agent left it and as the
 * engine wrote it — the next iteration starts from the latter. An analysis holds the whole
 * tree, so no more are kept.
 */
const MAX_ENTRIES = 2;

/**
 * The engine's memo of plan analyses (tree, outline, tasks with their checkboxes, status): a
 * plan text is parsed once while it is kept, whether the engine reads it, edits it or reads it
 * again after its own write. Keyed by the optional headings, then the text; two are kept, and
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
    let texts = this.#byHeadings.get(headings);
    const kept = texts?.get(markdown);
    if (kept !== undefined) return kept;
    const analysis = analyzePlan(markdown, options);
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
