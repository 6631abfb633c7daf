import { createPlanCache, parseConfig, parsePlan, updatePlan } from "@loop/core";
import { measure, report } from "./measure.js";

// Plan parsing and editing happen once per iteration (the engine re-reads the plan each time),
// so their cost is part of the engine's per-iteration overhead.

function planWith(taskCount: number, tasksPerSection = 50): string {
  const lines = ["# Feature: benchmark", "", "## RALPH_STATUS", "", "- EXIT_SIGNAL: false", ""];
  lines.push("- completion_indicators: 0", "- current_task: TASK-0001", "", "## Tasks", "");
  for (let index = 0; index < taskCount; index += 1) {
    if (index % tasksPerSection === 0)
      lines.push("", `### Phase ${index / tasksPerSection + 1}`, "");
    const id = `TASK-${String(index + 1).padStart(4, "0")}`;
    lines.push(
      `- [${index % 3 === 0 ? "x" : " "}] ${id} Implement part ${index + 1} of the feature`,
    );
  }
  lines.push("", "## Acceptance Criteria", "", "- [ ] Every part works", "");
  return lines.join("\n");
}

const small = planWith(100);
const large = planWith(2_000);
const huge = planWith(20_000);
const cache = createPlanCache();
cache.parse(small);

const rows = [
  await measure("parsePlan, 100 tasks", () => parsePlan(small)),
  await measure("updatePlan check 1 of 100 tasks", () =>
    updatePlan(small, { check: ["TASK-0050"] }),
  ),
  await measure("plan cache hit, 100 tasks", () => cache.parse(small), { runs: 2_000 }),
  await measure("parsePlan, 2,000 tasks", () => parsePlan(large), { runs: 20, warmup: 2 }),
  await measure("parsePlan, 20,000 tasks", () => parsePlan(huge), { runs: 3, warmup: 1 }),
  await measure("parseConfig, seed config", () =>
    parseConfig(
      "version: 1\nexit_policy:\n  min_completion_indicators: 2\nlimits:\n  max_iterations: 20\n",
    ),
  ),
];
report("plan and config", rows);
