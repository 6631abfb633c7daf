import type { MarkdownTree } from "./markdown-tree.js";
import type { ParsedPlan, ParsePlanOptions } from "./parsed-plan.js";
import { analyzePlan, type LocatedTask, type PlanAnalysis } from "./plan-analysis.js";
import type { PlanOutline } from "./plan-outline.js";
import type { StatusSection, StatusValue } from "./status-entries.js";

/**
 * A plan analysis whose tasks and parsed plan are known (derived from an earlier analysis,
 * see `deriveAnalysis`) and whose tree (its root and checkboxes; the text is known), outline
 * and status section are parsed from the text when one of them is first read: reading the
 * plan needs only the former, so most derived analyses are never parsed at all.
 */
export class LazyPlanAnalysis implements PlanAnalysis {
  readonly tree: MarkdownTree;
  readonly tasks: readonly LocatedTask[];
  readonly statusEntries: readonly StatusValue[];
  readonly plan: ParsedPlan;
  readonly #options: ParsePlanOptions | null | undefined;
  readonly #statusSection: StatusSection | null | undefined;
  #parsed: PlanAnalysis | undefined;

  /**
   * @param bom - the plan's byte order mark(s), or `""`.
   * @param body - the plan text after them.
   * @param options - the options to parse it with.
   * @param tasks - its tasks with their checkboxes.
   * @param plan - what parsing it gives.
   * @param statusEntries - its RALPH_STATUS entries.
   * @param statusSection - its RALPH_STATUS section when known (every node of it where the
   *   parsed tree would have it), or `undefined` to parse it when read.
   */
  constructor(
    bom: string,
    body: string,
    options: ParsePlanOptions | null | undefined,
    tasks: readonly LocatedTask[],
    plan: ParsedPlan,
    statusEntries: readonly StatusValue[],
    statusSection: StatusSection | null | undefined,
  ) {
    const parsed = () => this.#parse().tree;
    this.tree = {
      bom,
      body,
      get root() {
        return parsed().root;
      },
      get checkboxes() {
        return parsed().checkboxes;
      },
    };
    this.#options = options;
    this.tasks = tasks;
    this.plan = plan;
    this.statusEntries = statusEntries;
    this.#statusSection = statusSection;
  }

  /** The outline (parsed now, the first time). */
  get outline(): PlanOutline {
    return this.#parse().outline;
  }

  /** The RALPH_STATUS section as written (parsed now, the first time, unless it was known). */
  get statusSection(): StatusSection | null {
    return this.#statusSection === undefined ? this.#parse().statusSection : this.#statusSection;
  }

  /** The status section if it is known without parsing (`undefined` when it is not). */
  get knownStatusSection(): StatusSection | null | undefined {
    return this.#statusSection !== undefined ? this.#statusSection : this.#parsed?.statusSection;
  }

  #parse(): PlanAnalysis {
    this.#parsed ??= analyzePlan(this.tree.bom + this.tree.body, this.#options);
    return this.#parsed;
  }
}
