import type { Nodes } from "mdast";
import { parseMarkdownTree } from "./markdown-tree.js";
import type { ParsePlanOptions } from "./parsed-plan.js";
import { plainText } from "./plain-text.js";
import { outlinePlan, type PlanBlock } from "./plan-outline.js";
import {
  DEFAULT_OPTIONAL_HEADINGS,
  REQUIREMENT_SECTIONS,
  type RequirementSection,
} from "./section-names.js";

/**
 * One item of a plan's `Acceptance Criteria`, `Success Metrics` or `Constraints`
 * section: something the finished work must satisfy, checked against completed tasks by
 * the loop's verification.
 */
export interface Requirement {
  /** The item's plain text, whitespace collapsed. */
  readonly text: string;
  /** The section it is listed under. */
  readonly section: RequirementSection;
  /** 1-based line of the item's start. */
  readonly line: number;
  /** Whether its box is checked; `null` for a plain bullet or numbered item. */
  readonly checked: boolean | null;
}

/**
 * Collects the requirements of the blocks whose role is `requirement`, ordered by section
 * priority (see {@link parsePlanRequirements}), document order within a section.
 *
 * @param blocks - the plan's classified top-level blocks.
 * @returns the requirements.
 */
export function collectRequirements(blocks: readonly PlanBlock[]): Requirement[] {
  const requirements: Requirement[] = [];
  for (const block of blocks) {
    if (block.role.kind !== "requirement") continue;
    visit(block.node, block.role.section, requirements);
  }
  const priority = (section: RequirementSection) => REQUIREMENT_SECTIONS.indexOf(section);
  // Array.prototype.sort is stable: document order is kept within a section.
  return requirements.sort((left, right) => priority(left.section) - priority(right.section));
}

function visit(node: Nodes, section: RequirementSection, requirements: Requirement[]): void {
  if (node.type === "list") {
    for (const item of node.children) visit(item, section, requirements);
    return;
  }
  if (node.type !== "listItem") return;
  const paragraph = node.children.find((child) => child.type === "paragraph");
  const text = paragraph === undefined ? "" : plainText(paragraph);
  if (text !== "" && node.position) {
    requirements.push({
      text,
      section,
      line: node.position.start.line,
      checked: typeof node.checked === "boolean" ? node.checked : null,
    });
  }
  for (const child of node.children) visit(child, section, requirements);
}

/**
 * Reads a plan's requirements: the list items (checkbox items, plain bullets and numbered
 * items alike, nested ones included) under the headings `Acceptance Criteria`,
 * `Success Metrics` and `Constraints`, at any heading level, matched like every plan
 * heading (case-insensitive, ignoring emphasis, numbering and a trailing colon).
 *
 * "In order of priority" means: every section contributes, and the list is ordered by
 * section priority — all Acceptance Criteria first, then Success Metrics, then
 * Constraints — in document order within a section. A section heading that appears
 * twice contributes both times. Items in code blocks, raw HTML and block quotes are not
 * requirements.
 *
 * Unlike {@link parsePlan}, this does not check the plan: duplicate task ids or a malformed
 * RALPH_STATUS do not stop requirements from being read. Only a plan that no parse can read,
 * nested more than 100 block quotes and list items deep, is refused.
 *
 * @param markdown - the plan text.
 * @param options - accepted so that the same options object serves {@link parsePlan}
 *   and this function; requirements depend on none of them.
 * @returns the requirements, highest priority first.
 * @throws {PlanParseError} when the plan nests block quotes and list items more than 100
 *   deep, at the line and column where it goes too deep.
 *
 * @example
 * ```ts
 * const requirements = parsePlanRequirements(
 *   "## Constraints\n- Node 20 only\n\n## Acceptance Criteria\n- [ ] Users can log in\n",
 * );
 * // [{ text: "Users can log in", section: "Acceptance Criteria", line: 5, checked: false },
 * //  { text: "Node 20 only", section: "Constraints", line: 2, checked: null }]
 * ```
 */
export function parsePlanRequirements(
  markdown: string,
  options?: ParsePlanOptions | null,
): Requirement[] {
  const { root } = parseMarkdownTree(markdown, { file: options?.file });
  const outline = outlinePlan(root, options?.optionalHeadings ?? DEFAULT_OPTIONAL_HEADINGS);
  return collectRequirements(outline.blocks);
}
