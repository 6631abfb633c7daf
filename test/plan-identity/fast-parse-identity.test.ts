// Issue 15: the fast plan parser (a line scanner that builds the mdast nodes it is sure of and
// hands the rest to micromark) must give exactly what the reference gives (every block through
// mdast-util-from-markdown, as before): the same tree, positions included, the same checkboxes,
// the same tasks, status, requirements and outline, the same errors. Checked on every markdown
// example of the docs, every plan fixture, realistic plans and generated markdown (fixed seed).

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type MarkdownTree,
  parseMarkdownTree,
  parseMarkdownTreeReference,
} from "../../packages/core/src/plan/markdown-tree.js";
import { analyzePlan } from "../../packages/core/src/plan/plan-analysis.js";
import { planText } from "../fuzz/targets.js";
import { docExamples, planFixtures, realisticPlans } from "./identity-corpus.js";
import { inlineMarkdown, markdownLines, planShaped } from "./markdown-arbitraries.js";

const SEED = 20_260_115;

type Outcome<Value> = { readonly value: Value } | { readonly error: string };

function outcome<Value>(run: () => Value): Outcome<Value> {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** The checkbox of every list item, in tree order (`null` for items without one). */
function checkboxesInOrder(tree: MarkdownTree): unknown[] {
  const spans: unknown[] = [tree.checkboxes.size];
  type ListItem = Parameters<MarkdownTree["checkboxes"]["get"]>[0];
  type TreeNode = { readonly type: string; readonly children?: readonly TreeNode[] };
  const visit = (node: TreeNode): void => {
    if (node.type === "listItem") spans.push(tree.checkboxes.get(node as ListItem) ?? null);
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree.root);
  return spans;
}

function treeView(tree: MarkdownTree) {
  return { root: tree.root, bom: tree.bom, body: tree.body, checkboxes: checkboxesInOrder(tree) };
}

function analysisView(text: string, reference: boolean) {
  const analysis = analyzePlan(text, null, reference ? parseMarkdownTreeReference : undefined);
  const { outline, tasks, statusSection, plan } = analysis;
  return { plan, outline, tasks, statusSection };
}

/** Whether the fast parse of `text` is the reference's; asserts with a diff when it is not. */
function parsesAlike(text: string): boolean {
  const fastTree = outcome(() => treeView(parseMarkdownTree(text)));
  const referenceTree = outcome(() => treeView(parseMarkdownTreeReference(text)));
  const fastPlan = outcome(() => analysisView(text, false));
  const referencePlan = outcome(() => analysisView(text, true));
  if (isDeepStrictEqual(fastTree, referenceTree) && isDeepStrictEqual(fastPlan, referencePlan)) {
    return true;
  }
  expect(fastTree, JSON.stringify(text)).toStrictEqual(referenceTree);
  expect(fastPlan, JSON.stringify(text)).toStrictEqual(referencePlan);
  return false;
}

describe("the fast plan parser gives the reference's result", () => {
  it("on every markdown example of the docs", () => {
    const examples = docExamples();
    expect(examples.length).toBeGreaterThan(10);
    for (const { text } of examples) expect(parsesAlike(text)).toBe(true);
  });

  it("on every plan fixture", () => {
    const fixtures = planFixtures();
    expect(fixtures.length).toBeGreaterThan(10);
    for (const { text } of fixtures) expect(parsesAlike(text)).toBe(true);
  });

  it("on inputs that once parsed differently", () => {
    // A line of only a byte order mark or a no-break space is not blank (String#trim would
    // call it blank): it does not end an HTML block, a paragraph or a list item.
    const cases = [
      "<div>\n\uFEFF\n# Plan",
      "<div>\n\u00A0\n- [ ] a task",
      "text\n\uFEFF\n# Plan\n- [ ] a",
      "- [ ] a\n\u00A0\n- [ ] b",
      "> quote\n\uFEFF\n- [ ] a",
    ];
    for (const text of cases) expect(parsesAlike(text)).toBe(true);
  });

  it("on realistic plans, up to 1,000 tasks", { timeout: 30_000 }, () => {
    for (const { text } of realisticPlans()) expect(parsesAlike(text)).toBe(true);
  });

  const generated: readonly (readonly [string, fc.Arbitrary<string>, number])[] = [
    ["lines of block syntax, indented, any line ending", markdownLines, 700],
    ["inline syntax in tasks, headings and quotes", inlineMarkdown, 700],
    ["plan-shaped documents", planShaped, 400],
    ["the fuzz tests' plans", planText, 250],
  ];
  for (const [name, inputs, numRuns] of generated) {
    it(`on generated markdown: ${name}`, { timeout: 60_000 }, () => {
      fc.assert(fc.property(inputs, parsesAlike), { seed: SEED, numRuns });
    });
  }
});
