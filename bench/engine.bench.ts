import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type Executor, runLoop, type StateStore } from "@loop/core";
import { createFileStateStore } from "@loop/fs";
import { MemoryLogger, MemoryStateStore, memoryPlan } from "@loop/memory";

// Engine overhead per iteration: a no-op executor (it reports a changed file, so it makes
// progress without finishing a task and the loop goes on) over a 100-task plan. Targets: median
// ≤ 2 ms with MemoryStateStore, ≤ 10 ms with FileStateStore (fsync included).

const tasks = Array.from(
  { length: 100 },
  (_, index) => `- [ ] TASK-${index + 1} Part ${index + 1}`,
);
const planText = `# Bench\n\n## RALPH_STATUS\n\n- EXIT_SIGNAL: false\n- completion_indicators: 0\n- current_task: TASK-1\n\n## Tasks\n\n${tasks.join("\n")}\n`;

const noOp: Executor = {
  name: "no-op",
  specificationVersion: "v1",
  execute: async () => ({ output: "Worked on it.", success: true, filesChanged: 1 }),
};

function config(iterations: number) {
  return {
    limits: { max_iterations: iterations, max_calls_per_hour: 1_000_000 },
    circuit_breaker: { no_progress_loops: 1_000_000 },
  };
}

async function perIteration(store: () => StateStore, iterations: number, runs: number) {
  const perRun: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    const result = await runLoop({
      plan: memoryPlan(planText),
      executor: noOp,
      store: store(),
      logger: new MemoryLogger({ capacity: 1_000 }),
      config: config(iterations),
    });
    if (result.exitReason !== "max_iterations") throw new Error(`unexpected ${result.exitReason}`);
    perRun.push((performance.now() - start) / iterations);
  }
  perRun.sort((a, b) => a - b);
  return perRun[Math.floor(perRun.length / 2)] ?? 0;
}

const memoryMedian = await perIteration(() => new MemoryStateStore(), 200, 7);
const folder = mkdtempSync(join(tmpdir(), "loop-bench-"));
let count = 0;
const freshFileStore = () => {
  count += 1;
  return createFileStateStore({ root: join(folder, String(count)) });
};
const fileMedian = await perIteration(freshFileStore, 100, 5);
rmSync(folder, { recursive: true, force: true });

console.log("\nengine overhead per iteration (no-op executor, 100-task plan)");
console.log(
  `  MemoryStateStore  median ${memoryMedian.toFixed(3)} ms per iteration  target ≤ 2 ms`,
);
console.log(`  FileStateStore    median ${fileMedian.toFixed(3)} ms per iteration  target ≤ 10 ms`);

// Heap: 10,000 iterations of a looping plan with MemoryStateStore and a capped MemoryLogger stays
// within 20 MB of the heap after 1,000.
const gc = (globalThis as { gc?: () => void }).gc;
async function heapAfter(iterations: number): Promise<number> {
  const store = new MemoryStateStore();
  await runLoop({
    plan: memoryPlan(planText),
    executor: noOp,
    store,
    logger: new MemoryLogger({ capacity: 1_000 }),
    config: config(iterations),
  });
  gc?.();
  return process.memoryUsage().heapUsed;
}
const after1k = await heapAfter(1_000);
const after10k = await heapAfter(10_000);
console.log("\nheap after a loop (MemoryStateStore, MemoryLogger capacity 1,000)");
console.log(
  `  1,000 iterations   ${(after1k / 2 ** 20).toFixed(1)} MB${gc ? "" : " (no --expose-gc: figures include garbage)"}`,
);
console.log(
  `  10,000 iterations  ${(after10k / 2 ** 20).toFixed(1)} MB  difference ${((after10k - after1k) / 2 ** 20).toFixed(1)} MB, target ≤ 20 MB`,
);
