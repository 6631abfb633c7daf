import { runLoop } from "@loop/core";
import {
  createScriptedExecutor,
  createTestClock,
  MemoryLogger,
  MemoryStateStore,
  memoryPlan,
} from "@loop/memory";
import { describe, expect, it } from "vitest";
import { START, taskList } from "./support.js";

// An agent's error can carry a credential (a tool that printed its environment). The decision
// log keeps it redacted, and the state keeps only a hash of the failure.

const KEY = "AKIAIOSFODNN7EXAMPLE";
const failing = {
  success: false,
  output: "",
  error: `aws s3 ls failed: AWS_ACCESS_KEY_ID=${KEY} is not authorized`,
};

describe("a credential in an agent's error", () => {
  it("is in neither the decision log nor the state", async () => {
    const store = new MemoryStateStore();
    const logger = new MemoryLogger();
    const result = await runLoop({
      plan: memoryPlan(taskList(1), { path: "plan.md" }),
      executor: createScriptedExecutor([failing, failing, failing, failing]),
      store,
      logger,
      clock: createTestClock({ start: START }),
      config: { limits: { max_iterations: 4 } },
    });
    const logged = JSON.stringify(logger.events);
    expect(logged).not.toContain(KEY);
    expect(logged).toContain("AWS_ACCESS_KEY_ID=[REDACTED]");
    const stored = JSON.stringify(store.snapshot());
    expect(stored).not.toContain(KEY);
    expect(result.state?.circuit_breaker?.last_error_fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });
});
