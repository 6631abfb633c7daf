import type { Heading, Root, RootContent } from "mdast";
import { normalizeHeading } from "./heading-match.js";
import { plainText } from "./plain-text.js";
import { REQUIREMENT_SECTIONS, type RequirementSection } from "./section-names.js";

/** What the items of one top-level block of a plan are. */
export type BlockRole =
  /** Task-list items in it are tasks. */
  | {
      readonly kind: "task";
      /** Whether a heading above it is an optional heading. */
      readonly optional: boolean;
      /** Text of the nearest heading above it. */
      readonly section: string | undefined;
    }
  /** Items in it are requirements of `section`. */
  | { readonly kind: "requirement"; readonly section: RequirementSection }
  /** It is part of the plan's RALPH_STATUS section. */
  | { readonly kind: "status" }
  /** Nothing in it is read (outside the Tasks section, or a second RALPH_STATUS section). */
  | { readonly kind: "ignored" };

/** One top-level (non-heading) block of a plan and what its items are. */
export interface PlanBlock {
  /** The block: a list, a paragraph, a code block, a block quote… */
  readonly node: RootContent;
  /** What its items are, decided by the headings above it. */
  readonly role: BlockRole;
}

/** A plan's top-level blocks, classified by the headings above them. */
export interface PlanOutline {
  /** Every top-level block that is not a heading, in document order. */
  readonly blocks: readonly PlanBlock[];
  /** The first RALPH_STATUS heading, if any. */
  readonly statusHeading: Heading | null;
  /** The first depth-1 heading (the plan's title), if any. */
  readonly titleHeading: Heading | null;
}

type HeadingKind =
  | { readonly kind: "status" }
  | { readonly kind: "requirement"; readonly section: RequirementSection }
  | { readonly kind: "tasks" }
  | { readonly kind: "optional" }
  | { readonly kind: "other" };

interface OpenHeading {
  readonly node: Heading;
  readonly text: string;
  readonly kind: HeadingKind;
}

const statusName = normalizeHeading("RALPH_STATUS");
const tasksName = normalizeHeading("Tasks");
const requirementNames = REQUIREMENT_SECTIONS.map(
  (section) => [section, normalizeHeading(section)] as const,
);

/** What a heading is, from its text normalised by `normalizeHeading`. */
function classifyHeading(name: string, optionalNames: ReadonlySet<string>): HeadingKind {
  if (name === statusName) return { kind: "status" };
  for (const [section, sectionName] of requirementNames) {
    if (name === sectionName) return { kind: "requirement", section };
  }
  if (name === tasksName) return { kind: "tasks" };
  if (optionalNames.has(name)) return { kind: "optional" };
  return { kind: "other" };
}

/**
 * Classifies a plan's top-level blocks by the root-level headings above them. A heading's
 * section runs until the next heading of the same or a higher level, its sub-headings
 * included; headings nested in lists or block quotes do not open sections.
 *
 * The innermost RALPH_STATUS, requirement or Tasks heading above a block decides what it
 * is; when the plan has a Tasks heading, blocks outside every Tasks and optional section
 * are ignored.
 *
 * @param root - the plan's mdast root.
 * @param optionalHeadings - names of the optional headings.
 * @returns the classified blocks, the status heading and the title heading.
 */
export function outlinePlan(root: Root, optionalHeadings: readonly string[]): PlanOutline {
  const optionalNames = new Set(optionalHeadings.map(normalizeHeading));
  const headings = new Map<Heading, OpenHeading>();
  let hasTasksHeading = false;
  for (const node of root.children) {
    if (node.type !== "heading") continue;
    const text = plainText(node);
    const kind = classifyHeading(normalizeHeading(text), optionalNames);
    headings.set(node, { node, text, kind });
    if (kind.kind === "tasks") hasTasksHeading = true;
  }

  const blocks: PlanBlock[] = [];
  const open: OpenHeading[] = [];
  let statusHeading: Heading | null = null;
  let titleHeading: Heading | null = null;
  for (const node of root.children) {
    if (node.type === "heading") {
      while ((open.at(-1)?.node.depth ?? 0) >= node.depth) open.pop();
      const heading = headings.get(node) ?? {
        node,
        text: plainText(node),
        kind: { kind: "other" },
      };
      open.push(heading);
      if (heading.kind.kind === "status" && statusHeading === null) statusHeading = node;
      if (node.depth === 1 && titleHeading === null) titleHeading = node;
      continue;
    }
    blocks.push({ node, role: roleOf(open, statusHeading, hasTasksHeading) });
  }
  return { blocks, statusHeading, titleHeading };
}

function roleOf(
  open: readonly OpenHeading[],
  statusHeading: Heading | null,
  hasTasksHeading: boolean,
): BlockRole {
  let optional = false;
  let special: OpenHeading | undefined;
  for (let index = open.length - 1; index >= 0; index -= 1) {
    const heading = open[index];
    if (heading === undefined) continue;
    if (heading.kind.kind === "optional") optional = true;
    if (
      special === undefined &&
      heading.kind.kind !== "optional" &&
      heading.kind.kind !== "other"
    ) {
      special = heading;
    }
  }
  const kind = special?.kind;
  if (kind?.kind === "status") {
    return special?.node === statusHeading ? { kind: "status" } : { kind: "ignored" };
  }
  if (kind?.kind === "requirement") return { kind: "requirement", section: kind.section };
  if (hasTasksHeading && kind?.kind !== "tasks" && !optional) return { kind: "ignored" };
  return { kind: "task", optional, section: open.at(-1)?.text };
}
