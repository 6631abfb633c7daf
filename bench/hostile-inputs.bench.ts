import { performance } from "node:perf_hooks";
import { analyzeResponse, PlanParseError, parsePlan, parseStatusBlock } from "@loop/core";
import {
  HOSTILE_ANSWERS,
  HOSTILE_PLANS,
  type HostileShape,
} from "../test/fixtures/fuzz/hostile-inputs.js";

// The hostile inputs of issue 13 at the sizes it reported (items 5 and 8): the time one call
// takes, next to what the issue measured before the fix. Every one must be linear: the
// figures at a quarter of the size show the growth (about 4x for linear time, 16x for
// quadratic).

function time(run: () => unknown): { ms: number; outcome: string } {
  const start = performance.now();
  let outcome = "ok";
  try {
    run();
  } catch (error) {
    if (!PlanParseError.isInstance(error)) throw error;
    const issue = error.issues[0];
    outcome = `PlanParseError at ${issue?.line}:${issue?.column}`;
  }
  return { ms: performance.now() - start, outcome };
}

function row(shape: HostileShape, run: (text: string) => unknown): void {
  const quarter = time(() => run(shape.make(Math.max(1, Math.floor(shape.reported / 4)))));
  const full = time(() => run(shape.make(shape.reported)));
  const size = `${shape.reported.toLocaleString("en")} ${shape.unit}`;
  console.log(
    `  ${`${shape.name}, ${size}`.padEnd(58)} ${full.ms.toFixed(0).padStart(7)} ms  (¼ size ${quarter.ms.toFixed(0)} ms)  ${full.outcome}${shape.before ? `  before: ${shape.before}` : ""}`,
  );
}

console.log(
  "\nhostile agent answers: analyzeResponse (the status block ones: parseStatusBlock too)",
);
for (const shape of HOSTILE_ANSWERS) {
  row(shape, (text) => analyzeResponse(text));
  if (shape.unit === "fields") {
    row({ ...shape, name: `${shape.name}, parseStatusBlock` }, (text) => parseStatusBlock(text));
  }
}
console.log("\nhostile plans: parsePlan");
for (const shape of HOSTILE_PLANS) row(shape, (text) => parsePlan(text));
