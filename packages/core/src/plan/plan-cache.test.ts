import { describe, expect, it } from "vitest";
import { fixPlan, seedExamplePlan } from "./fixtures/plan-corpus.js";
import { parsePlan } from "./parse-plan.js";
import { createPlanCache } from "./plan-cache.js";

describe("createPlanCache", () => {
  it("parses an unchanged plan once: the same result object comes back", () => {
    const cache = createPlanCache();
    const first = cache.parse(seedExamplePlan);
    expect(cache.parse(seedExamplePlan)).toBe(first);
    expect(cache.size).toBe(1);
    expect(first).toEqual(parsePlan(seedExamplePlan));
  });

  it("parses again when the content changes", () => {
    const cache = createPlanCache();
    const first = cache.parse(seedExamplePlan);
    const changed = cache.parse(seedExamplePlan.replace("- [ ] TASK-001", "- [x] TASK-001"));
    expect(changed).not.toBe(first);
    expect(changed.tasks[0]?.done).toBe(true);
    expect(cache.size).toBe(2);
  });

  it("keys on the optional headings but not on the file name", () => {
    const cache = createPlanCache();
    const plain = cache.parse(fixPlan);
    expect(cache.parse(fixPlan, { file: "other.md" })).toBe(plain);
    const custom = cache.parse(fixPlan, { optionalHeadings: ["Low Priority"] });
    expect(custom).not.toBe(plain);
    expect(custom.tasks.find((task) => task.id === "performance-optimization")?.optional).toBe(
      true,
    );
  });

  it("evicts the least recently used plan beyond maxEntries", () => {
    const cache = createPlanCache({ maxEntries: 2 });
    const plans = ["- [ ] TASK-1 a\n", "- [ ] TASK-2 b\n", "- [ ] TASK-3 c\n"];
    const first = cache.parse(plans[0] ?? "");
    cache.parse(plans[1] ?? "");
    expect(cache.parse(plans[0] ?? "")).toBe(first); // now the most recently used
    cache.parse(plans[2] ?? ""); // evicts plans[1]
    expect(cache.size).toBe(2);
    expect(cache.parse(plans[0] ?? "")).toBe(first);
    const second = cache.parse(plans[1] ?? "");
    expect(cache.parse(plans[1] ?? "")).toBe(second);
    expect(cache.size).toBe(2);
  });

  it("returns deeply frozen results that callers cannot corrupt", () => {
    const cache = createPlanCache();
    const plan = cache.parse(seedExamplePlan);
    expect(Object.isFrozen(plan)).toBe(true);
    expect(Object.isFrozen(plan.tasks)).toBe(true);
    expect(Object.isFrozen(plan.tasks[0])).toBe(true);
    expect(Object.isFrozen(plan.status)).toBe(true);
    expect(Object.isFrozen(plan.status?.fields)).toBe(true);
    expect(Object.isFrozen(plan.requirements)).toBe(true);
    expect(() => plan.tasks.pop()).toThrow(TypeError);
    expect(() => {
      (plan.tasks[0] as { done: boolean }).done = true;
    }).toThrow(TypeError);
    expect(cache.parse(seedExamplePlan).tasks[0]?.done).toBe(false);
  });

  it("does not cache errors and empties on clear", () => {
    const cache = createPlanCache();
    const broken = "- [ ] TASK-1 a\n- [ ] TASK-1 b\n";
    expect(() => cache.parse(broken)).toThrow(/Duplicate task id/);
    expect(cache.size).toBe(0);
    cache.parse(seedExamplePlan);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("checks maxEntries before anything else", () => {
    expect(() => createPlanCache({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => createPlanCache({ maxEntries: 1.5 })).toThrow(/whole number, 1 or more, got 1.5/);
  });
});
