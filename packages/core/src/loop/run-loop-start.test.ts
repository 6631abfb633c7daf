import { MemoryLogger, MemoryStateStore, memoryPlan } from "@loop/memory";
import { describe, expect, it } from "vitest";
import type { Executor } from "./executor.js";
import { runLoop } from "./run-loop.js";

// What runLoop checks before the first iteration. The scenarios of whole runs are in test/e2e/.

const plan = () => memoryPlan("# Plan\n\n- [ ] TASK-1 Do it\n", { path: "plan.md" });
const executor: Executor = {
  name: "never",
  specificationVersion: "v1",
  execute: async () => {
    throw new Error("must not run");
  },
};

describe("runLoop start-up checks", () => {
  it("refuses an executor of another interface version before running anything", async () => {
    const logger = new MemoryLogger();
    const result = await runLoop({
      plan: plan(),
      executor: { ...executor, specificationVersion: "v2" } as unknown as Executor,
      store: new MemoryStateStore(),
      logger,
    });
    expect(result.exitReason).toBe("error");
    expect(result.error?.name).toBe("UnsupportedExecutorError");
    expect(result.error?.message).toContain('Executor specification "v2"');
    expect(result.iterations).toBe(0);
    expect(logger.ofType("error")[0]?.payload.error_type).toBe("UnsupportedExecutorError");
  });

  it("reports a prompt template with an unknown placeholder as a config error, before iteration 1", async () => {
    const result = await runLoop({
      plan: plan(),
      executor,
      store: new MemoryStateStore(),
      prompt: { template: "Do {{task_idd}} now" },
    });
    expect(result.exitReason).toBe("config_error");
    expect(result.error?.name).toBe("PromptTemplateError");
    expect(result.error?.message).toContain("task_id");
    expect(result.iterations).toBe(0);
  });

  it("reports an invalid config override as a config error naming the key", async () => {
    const result = await runLoop({
      plan: plan(),
      executor,
      store: new MemoryStateStore(),
      config: { limits: { max_iterations: 0 } },
    });
    expect(result.exitReason).toBe("config_error");
    expect(result.error?.message).toContain("limits.max_iterations");
  });
});
