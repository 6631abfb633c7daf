import { describe, expect, it } from "vitest";
import { memoryPlan } from "./memory-plan.js";

describe("memoryPlan", () => {
  it("reads the initial text, then the latest written one", async () => {
    const plan = memoryPlan("- [ ] TASK-001 Parse\r\n");
    expect(await plan.read()).toBe("- [ ] TASK-001 Parse\r\n");
    await plan.write("- [x] TASK-001 Parse\r\n");
    expect(await plan.read()).toBe("- [x] TASK-001 Parse\r\n");
    expect(plan.text).toBe("- [x] TASK-001 Parse\r\n");
  });

  it("records every write, oldest first", async () => {
    const plan = memoryPlan("v0");
    await plan.write("v1");
    await plan.write("v2");
    expect(plan.writes).toEqual(["v1", "v2"]);
  });

  it("is named memory:plan.md unless given a path", () => {
    expect(memoryPlan("").path).toBe("memory:plan.md");
    expect(memoryPlan("", { path: "plans/fix_plan.md" }).path).toBe("plans/fix_plan.md");
    expect(memoryPlan("", null).path).toBe("memory:plan.md");
  });

  it("accepts only text", async () => {
    expect(() => memoryPlan(undefined as unknown as string)).toThrow(TypeError);
    expect(() => memoryPlan("", { path: 1 as unknown as string })).toThrow("Option `path`");
    await expect(memoryPlan("").write(null as unknown as string)).rejects.toThrow(TypeError);
  });
});
