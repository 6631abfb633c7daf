import { isDeepStrictEqual } from "node:util";
import type { List, RootContent } from "mdast";
import { describe, expect, it } from "vitest";
import { deferredTaskRecords } from "./deferred-list.js";
import { parseMarkdownTree, parseMarkdownTreeReference } from "./markdown-tree.js";
import { analyzePlan } from "./plan-analysis.js";

const plan = [
  "# Plan",
  "",
  "## Tasks",
  "",
  "- [ ] TASK-1 Write the **parser**",
  "  - [x] TASK-2 Read `lines`",
  "  - a plain sub-item",
  "",
  "  ```ts",
  "  const x = 1;",
  "  ```",
  "- [X] TASK-3 Test it",
  "",
  "## Notes",
  "",
  "- [ ] TASK-4 after a heading",
  "",
].join("\n");

function lists(children: readonly RootContent[]): List[] {
  return children.filter((node): node is List => node.type === "list");
}

describe("a list the scanner read whole, once a later block makes it final", () => {
  it("knows its tasks without its items, and reads them again exactly when they are read", () => {
    const tree = parseMarkdownTree(plan);
    const [first, last] = lists(tree.root.children);
    if (first === undefined || last === undefined) throw new Error("two lists expected");
    // The first list is final once the Notes heading starts; the last one is never deferred.
    expect(deferredTaskRecords(first)?.map((record) => [record.text, record.depth])).toEqual([
      ["TASK-1 Write the parser", 0],
      ["TASK-2 Read lines", 1],
      ["TASK-3 Test it", 0],
    ]);
    expect(deferredTaskRecords(last)).toBeUndefined();

    const reference = parseMarkdownTreeReference(plan);
    expect(tree.root).toStrictEqual(reference.root);
    expect(deferredTaskRecords(first)).toBeUndefined();
    const items = first.children;
    expect(first.children).toBe(items);
    // Every task item has its checkbox, read again with it.
    expect([...tree.checkboxes.values()]).toEqual([...reference.checkboxes.values()]);
    expect(tree.checkboxes.size).toBe(reference.checkboxes.size);
  });

  it("gives the tasks the reference parse gives (none under Notes: the plan has a Tasks heading)", () => {
    const fast = analyzePlan(plan).plan;
    const reference = analyzePlan(plan, null, parseMarkdownTreeReference).plan;
    expect(fast).toStrictEqual(reference);
    expect(fast.tasks.map((task) => [task.id, task.parentId, task.done])).toEqual([
      ["TASK-1", undefined, false],
      ["TASK-2", "TASK-1", true],
      ["TASK-3", undefined, true],
    ]);
  });

  it("has children like a plain property: enumerable, settable, copied by JSON", () => {
    const [first] = lists(parseMarkdownTree(plan).root.children);
    if (first === undefined) throw new Error("a list expected");
    expect(Object.keys(first)).toContain("children");
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    const copy = JSON.parse(JSON.stringify(first)) as List;
    expect(isDeepStrictEqual(copy.children, JSON.parse(JSON.stringify(first.children)))).toBe(true);
    expect(copy.children).toHaveLength(2);
    first.children = [];
    expect(first.children).toEqual([]);
    expect(deferredTaskRecords(first)).toBeUndefined();
  });

  it("is not deferred when long paragraphs' text is put back into the tree", () => {
    const long = `${"word *x* ".repeat(600)}\n\n`;
    const tree = parseMarkdownTree(`${plan.replace("## Notes", `${long}## Notes`)}`);
    for (const list of lists(tree.root.children)) expect(deferredTaskRecords(list)).toBeUndefined();
  });
});
