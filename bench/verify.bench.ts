import { performance } from "node:perf_hooks";
import { isDeepStrictEqual } from "node:util";
import { GCProfiler } from "node:v8";
import { matchRequirements } from "@loop/core";
import { matchRequirementsAllPairs } from "../packages/core/src/verify/match-requirements-reference.js";
import { realisticTaskId } from "./support/realistic-plan.js";

// Issue 15: requirement matching at scale. 10,000 completed tasks ("Implement the 123th endpoint
// of inventory/122") against 1,000 requirements ("The 12th endpoint of inventory 110 returns 404
// for a missing item"): the tasks and acceptance criteria of bench/support/realistic-plan.ts, as
// parsePlan returns them (built here directly, so that the figures are matching alone). Every
// task shares two content words (endpoint, inventory) with every requirement, so every pair is
// a candidate: each requirement's result lists all 10,000 tasks, 10 million candidates in all.
//
// The indexed matcher (matchRequirements) runs at full size; the all-pairs reference it replaced
// takes 10 to 20 s and over 600 MB there, so it runs at a tenth of the requirements, beside the
// indexed matcher at that size, and the two results are compared
// (VERIFY_BENCH_FULL_REFERENCE=1 runs it at full size as well).
//
// Memory is the JS heap plus array buffers: "peak" is the most in use during the call (read
// before every collection and at its end) above what was in use before it, the figure the
// 150 MB target is about; "retained" is what the result holds once garbage is collected.

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** Memory in use: the JS heap plus array buffers (typed arrays live outside the heap). */
function inUse(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

interface Figures {
  readonly ms: number;
  /** Memory held by the result: in use after gc, less in use after gc before the call. */
  readonly retained: number;
  /** The most in use during the call (before each collection, and at its end), less the same base. */
  readonly peak: number;
  /** Time spent collecting garbage during the call. */
  readonly gcMs: number;
}

function run<Result>(call: () => Result): { result: Result; figures: Figures } {
  gc?.();
  const baseline = inUse();
  const profiler = new GCProfiler();
  profiler.start();
  const start = performance.now();
  const result = call();
  const ms = performance.now() - start;
  const atEnd = inUse();
  const collections = profiler.stop().statistics;
  const peak = Math.max(
    atEnd,
    ...collections.map(
      ({ beforeGC }) =>
        beforeGC.heapStatistics.usedHeapSize + beforeGC.heapStatistics.externalMemory,
    ),
  );
  const gcMs = collections.reduce((total, { cost }) => total + cost, 0) / 1000;
  gc?.();
  return { result, figures: { ms, retained: inUse() - baseline, peak: peak - baseline, gcMs } };
}

function line(name: string, { ms, retained, peak, gcMs }: Figures, note = ""): void {
  const figures = `${ms.toFixed(0).padStart(6)} ms (gc ${gcMs.toFixed(0).padStart(3)} ms)  peak ${mb(peak).padStart(8)}  retained ${mb(retained).padStart(8)}`;
  console.log(`  ${name.padEnd(38)} ${figures}${note}`);
}

const tasks = Array.from({ length: 10_000 }, (_, index) => ({
  id: realisticTaskId(index),
  title: `Implement the ${index + 1}th endpoint of inventory/${index}`,
  done: true,
}));
const requirements = Array.from({ length: 1_000 }, (_, index) => ({
  text: `The ${index + 1}th endpoint of inventory ${index * 10} returns 404 for a missing item`,
  section: "Acceptance Criteria",
  checked: false,
}));
const tenth = requirements.slice(0, 100);

console.log(
  `\nverification: matchRequirements, ${tasks.length.toLocaleString("en")} completed tasks${gc ? "" : " (no --expose-gc: heap figures include garbage)"}`,
);
// Warm up the JIT on a small call, so the first measured run is not mostly compilation.
matchRequirements(requirements.slice(0, 20), tasks.slice(0, 2_000));
matchRequirementsAllPairs(requirements.slice(0, 2), tasks.slice(0, 2_000));

// Three runs at full size, each result dropped before the next.
let candidates = 0;
for (const attempt of [1, 2, 3]) {
  const full = run(() => matchRequirements(requirements, tasks));
  candidates = full.result.reduce((total, match) => total + match.candidates.length, 0);
  line(
    `indexed, 10,000 × 1,000, run ${attempt}`,
    full.figures,
    attempt === 1 ? "  target ≤ 1,000 ms, ≤ 150 MB  before: ≈ 22 s, 600 MB" : "",
  );
  full.result.length = 0;
}
console.log(`  (${candidates.toLocaleString("en")} candidates per run)`);

const indexed = run(() => matchRequirements(tenth, tasks));
line("indexed, 10,000 × 100", indexed.figures);
const reference = run(() => matchRequirementsAllPairs(tenth, tasks));
line("all-pairs reference, 10,000 × 100", reference.figures, "  (1,000 requirements: about ×10)");
const same = isDeepStrictEqual(indexed.result, reference.result);
console.log(`  same result at 10,000 × 100: ${same ? "yes" : "NO"}`);
if (!same) process.exitCode = 1;
indexed.result.length = 0;
reference.result.length = 0;

// A sparse case beside the dense one: texts of random words from a 20,000-word vocabulary, so
// that few tasks share a word (or a typo of one) with a requirement.
let seed = 15;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const letters = "abcdefghijklmnopqrstuvwxyz";
const vocabulary = Array.from({ length: 20_000 }, () =>
  Array.from(
    { length: 4 + Math.floor(random() * 8) },
    () => letters[Math.floor(random() * 26)],
  ).join(""),
);
const words = (count: number) =>
  Array.from({ length: count }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(
    " ",
  );
const sparseTasks = tasks.map((task) => ({ ...task, title: words(6) }));
const sparseRequirements = requirements.map((requirement) => ({ ...requirement, text: words(8) }));
const sparse = run(() => matchRequirements(sparseRequirements, sparseTasks));
const sparseCandidates = sparse.result.reduce((total, match) => total + match.candidates.length, 0);
line(
  "indexed, 10,000 × 1,000, random words",
  sparse.figures,
  `  (${sparseCandidates.toLocaleString("en")} candidates)`,
);
sparse.result.length = 0;

// The reference at full size on request: VERIFY_BENCH_FULL_REFERENCE=1 (10 to 20 s, 600 MB).
if (process.env.VERIFY_BENCH_FULL_REFERENCE === "1") {
  line(
    "all-pairs reference, 10,000 × 1,000",
    run(() => matchRequirementsAllPairs(requirements, tasks)).figures,
  );
}
