import { expect, it } from "vitest";
import * as claude from "./index.js";

it("exports exactly the public API", () => {
  expect(Object.keys(claude).sort()).toEqual([
    "ClaudeExecutor",
    "buildClaudeArgs",
    "createClaudeStreamParser",
    "detectUsageLimit",
    "handleStopHook",
    "isTransientOverload",
    "parseClaudeStream",
    "parseRalphLoopState",
    "toExecutionResult",
    "toHookOutput",
    "withRalphLoopIteration",
  ]);
});
