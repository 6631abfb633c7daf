import { missedTargets, runScenario, SCENARIOS } from "../test/support/scenarios.js";

// Issue 14's whole-loop scenarios (test/support/scenarios.ts): a 5-task plan, the default config,
// one scripted agent each. Prints, per scenario, the agent calls, the exit reason, whether the
// loop called the plan complete, and the target; "peer" is ralph_loop.sh on the same answers
// as issue 14 measured it (not re-run here). test/e2e/scenarios.test.ts asserts the targets.

const rows = [["scenario", "calls", "exit reason", "complete", "target", "met", "peer"]];
let totalCalls = 0;
for (const scenario of SCENARIOS) {
  const outcome = await runScenario(scenario);
  totalCalls += outcome.calls;
  const missed = missedTargets(scenario, outcome);
  rows.push([
    scenario.name,
    String(outcome.calls),
    outcome.exitReason,
    String(outcome.complete),
    scenario.targetText,
    missed.length === 0 ? "yes" : `NO: ${missed.join("; ")}`,
    scenario.peer,
  ]);
}
const widths =
  rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
console.log("\nscenarios: agent calls to the right stop (5-task plan, default config)");
for (const row of rows) {
  console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ")}`);
}
console.log(`  total agent calls: ${totalCalls}`);
