import { parsePlan } from "@loop/core";
import { parseMarkdownTreeReference } from "../packages/core/src/plan/markdown-tree.js";
import { analyzePlan } from "../packages/core/src/plan/plan-analysis.js";
import { measure } from "./measure.js";
import { realisticPlan } from "./support/realistic-plan.js";

// Issue 15: parsePlan on realistic plans, in MB/s, against the target, with the reference parse
// (everything through micromark, as before the fast scanner) beside it in the same run. Both
// give the same result (packages/core/src/plan/fast-parse-identity.test.ts checks it).

const TARGET_MB_PER_S = 20;

function parseReference(text: string): unknown {
  return analyzePlan(text, null, parseMarkdownTreeReference).plan;
}

/** Collects garbage, when run with `--expose-gc` (as `pnpm bench` runs), so that a measurement does not pay for the last one's. */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function megabytesPerSecond(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}

console.log("\nparsePlan on realistic plans (MB/s of UTF-8 text; median of the runs)");
// Issue 15's figures for parsePlan before: 1.0–2.4 s at 1,000 tasks (≈ 0.07 MB/s), 5–80 s at
// 10,000.
const BEFORE: Record<number, string> = { 1000: "1.0–2.4 s", 10000: "5–80 s" };
for (const [tasks, fastRuns, referenceRuns] of [
  [1_000, 100, 3],
  [10_000, 20, 1],
] as const) {
  const text = realisticPlan(tasks);
  const bytes = new TextEncoder().encode(text).length;
  collectGarbage();
  const fast = await measure("fast", () => parsePlan(text), { runs: fastRuns, warmup: 10 });
  collectGarbage();
  const reference = await measure("reference", () => parseReference(text), {
    runs: referenceRuns,
    warmup: tasks > 1_000 ? 0 : 1,
  });
  const fastRate = megabytesPerSecond(bytes, fast.medianMs);
  const referenceRate = megabytesPerSecond(bytes, reference.medianMs);
  const verdict = fastRate >= TARGET_MB_PER_S ? "meets" : "MISSES";
  console.log(
    `  ${`realisticPlan(${tasks.toLocaleString("en")}), ${(bytes / 1e6).toFixed(2)} MB`.padEnd(30)}` +
      `  parsePlan ${fast.medianMs.toFixed(1).padStart(6)} ms = ${fastRate.toFixed(1).padStart(5)} MB/s` +
      `  (${verdict} the target of ≥ ${TARGET_MB_PER_S} MB/s)` +
      `  reference ${reference.medianMs.toFixed(0).padStart(6)} ms = ${referenceRate.toFixed(2)} MB/s` +
      `  ${(reference.medianMs / fast.medianMs).toFixed(0)}x faster  before: ${BEFORE[tasks]}`,
  );
}
