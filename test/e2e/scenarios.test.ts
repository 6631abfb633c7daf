import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { missedTargets, runScenario, SCENARIOS, scenarioTableRow } from "../support/scenarios.js";

// Issue 14's whole-loop scenarios: the loop stops at the right moment, with no more agent calls
// than the target, and never falsely. docs/policy.md shows the same table, checked here.

const policyDoc = readFileSync(new URL("../../docs/policy.md", import.meta.url), "utf8");

describe("the scenario suite (5-task plan, default config)", () => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    "%s meets its target",
    async (_, scenario) => {
      const outcome = await runScenario(scenario);
      expect(missedTargets(scenario, outcome)).toEqual([]);
    },
  );

  it("docs/policy.md's scenario table shows what the loop does now", async () => {
    const start = policyDoc.indexOf("<!-- scenario-table -->");
    const end = policyDoc.indexOf("<!-- /scenario-table -->");
    const documented = policyDoc
      .slice(start, end)
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| scenario |"))
      .filter((line) => !line.startsWith("| ---"));
    const rows: string[] = [];
    for (const scenario of SCENARIOS)
      rows.push(scenarioTableRow(scenario, await runScenario(scenario)));
    expect(documented).toEqual(rows);
  });
});
