import type { ParsedPlan, ParsePlanOptions } from "./parsed-plan.js";
import { analyzePlan } from "./plan-analysis.js";

/**
 * Reads a markdown plan: its tasks, its RALPH_STATUS section and its requirements.
 *
 * Tasks are GFM task-list items (`-`, `*`, `+` and ordered bullets; `[ ]`, `[x]`, `[X]`)
 * found by walking the markdown tree. Items in code blocks, raw HTML, block quotes, the
 * RALPH_STATUS section and the requirement sections are not tasks; when the plan has a
 * `Tasks` heading, only items in its section and under optional headings are. A task's
 * id is the `WORD-123` token at the start of its text (`TASK-001`), or one derived from
 * its title (`fix-the-login-bug`). The full rules are in `docs/plan-format.md`.
 *
 * Returns fresh, mutable objects on every call; see {@link createPlanCache} to parse an
 * unchanged plan only once.
 *
 * @param markdown - the plan text (a leading byte order mark is allowed).
 * @param options - the file name for error messages and the optional headings.
 * @returns the tasks in document order, the status (`null` without a RALPH_STATUS
 *   section) and the requirements in priority order.
 * @throws {PlanParseError} listing every problem with its line and column: an explicit
 *   task id used twice (both places are named), a malformed `EXIT_SIGNAL` or
 *   `completion_indicators` value, block quotes and list items nested more than 100 deep
 *   (at the marker that goes too deep). The time taken is linear in the length of the plan.
 *
 * @example
 * ```ts
 * const { tasks, status } = parsePlan(
 *   "# Auth\n\n## RALPH_STATUS\n- EXIT_SIGNAL: false\n\n## Tasks\n- [x] TASK-001 Design schema\n- [ ] TASK-002 Hash passwords\n",
 *   { file: "plan.md" },
 * );
 * tasks.map((task) => `${task.id} ${task.done}`); // ["TASK-001 true", "TASK-002 false"]
 * status?.exitSignal; // false
 * ```
 */
export function parsePlan(markdown: string, options?: ParsePlanOptions | null): ParsedPlan {
  return analyzePlan(markdown, options).plan;
}
