import * as exec from "@loop/exec";
import { expect, it } from "vitest";

it("@loop/exec exports exactly its public API", () => {
  expect(Object.keys(exec).sort()).toEqual([
    "AGENT_TOKEN_VARIABLE",
    "CommandExecutor",
    "DEFAULT_KILL_GRACE_MS",
    "DEFAULT_TAIL_BYTES",
    "REMOVED_ENV_VARIABLES",
    "aiderExecutor",
    "ampExecutor",
    "codexExecutor",
    "defaultParse",
    "geminiExecutor",
    "gitProgress",
    "stopAgentSurvivors",
  ]);
});
