import { expect, it } from "vitest";
import * as memory from "./index.js";

// The public API of @loop/memory is deliberate: adding or removing an export changes this list.
it("exports exactly the pinned list", () => {
  expect(Object.keys(memory).sort()).toEqual([
    "MemoryLogger",
    "MemoryStateStore",
    "completesTask",
    "createScriptedExecutor",
    "createTestClock",
    "fails",
    "hangs",
    "hitsUsageLimit",
    "makesNoProgress",
    "memoryPlan",
  ]);
});
