import { describe, expect, it } from "vitest";
import { findDependencyCycles } from "./find-dependency-cycles.js";

/** Edges from a record, for brevity. */
function edges(record: Record<string, string[]>): Map<string, string[]> {
  return new Map(Object.entries(record));
}

describe("findDependencyCycles", () => {
  it("finds none in a tree of dependencies", () => {
    expect(findDependencyCycles(["A", "B", "C"], edges({ B: ["A"], C: ["A", "B"] }))).toEqual([]);
  });

  it("ignores self-edges", () => {
    expect(findDependencyCycles(["A"], edges({ A: ["A"] }))).toEqual([]);
  });

  it("returns the shortest cycle through the group's first node", () => {
    const graph = edges({ A: ["B"], B: ["C", "A"], C: ["A"] });
    expect(findDependencyCycles(["A", "B", "C"], graph)).toEqual([["A", "B"]]);
  });

  it("returns one cycle per group, in node order", () => {
    const graph = edges({ D: ["C"], C: ["D"], A: ["B"], B: ["A"] });
    expect(findDependencyCycles(["A", "B", "C", "D"], graph)).toEqual([
      ["A", "B"],
      ["C", "D"],
    ]);
  });

  it("handles long chains and long cycles without overflowing the stack", () => {
    const nodes = Array.from({ length: 50_000 }, (_, index) => `N${index}`);
    const graph = new Map(nodes.map((node, index) => [node, index === 0 ? [] : [`N${index - 1}`]]));
    expect(findDependencyCycles(nodes, graph)).toEqual([]);
    graph.set("N0", ["N49999"]);
    expect(findDependencyCycles(nodes, graph)[0]).toHaveLength(50_000);
  });
});
