import { type Executor, runLoop, type StateStore } from "@loop/core";
import { MemoryLogger, MemoryStateStore, memoryPlan } from "@loop/memory";

// Bytes the state store is given per iteration over a long run, on a Ralph-style plan that is
// worked and pruned (ten open tasks; each iteration deletes the task checked last time, checks
// its own and appends a new one). Issue 15 measured 8 KB growing to 62 KB per iteration over
// 2,000 iterations (quadratic in all); the target is O(changes): flat over the run.

const open = (from: number) => `- [ ] TASK-${from} Part ${from} of the long-running plan`;
const plan = memoryPlan(
  `# Plan\n\n${Array.from({ length: 10 }, (_, index) => open(index + 1)).join("\n")}\n`,
  { path: "plan.md" },
);
let next = 11;
const agent: Executor = {
  name: "prunes",
  specificationVersion: "v1",
  async execute(request) {
    const id = request.task?.id ?? "";
    const lines = (await plan.read())
      .split("\n")
      .filter((line) => !line.startsWith("- [x] "))
      .map((line) => (line.includes(`] ${id} `) ? line.replace("- [ ]", "- [x]") : line));
    lines.splice(lines.length - 1, 0, open(next));
    next += 1;
    await plan.write(lines.join("\n"));
    return { output: "Implemented it.", success: true, filesChanged: 1 };
  },
};

/** A store that counts the bytes it is given, over a memory store. */
function countingStore(): { store: StateStore; written: { bytes: number } } {
  const inner = new MemoryStateStore();
  const written = { bytes: 0 };
  const store: StateStore = {
    specificationVersion: "v1",
    get: (terminal, key, version) => inner.get(terminal, key, version),
    set: (terminal, key, text) => {
      written.bytes += Buffer.byteLength(text);
      return inner.set(terminal, key, text);
    },
    delete: (terminal, key) => inner.delete(terminal, key),
    lock: (terminal) => inner.lock(terminal),
  };
  return { store, written };
}

const { store, written } = countingStore();
const logger = new MemoryLogger({ capacity: 10 });
const perIteration: number[] = [];
let iterations = 0;
for (const until of [100, 500, 1_000, 2_000, 10_000]) {
  const before = written.bytes;
  const result = await runLoop({
    plan,
    executor: agent,
    store,
    logger,
    config: { limits: { max_iterations: until, max_calls_per_hour: 1_000_000 } },
  });
  const ran = result.totalIterations - iterations;
  iterations = result.totalIterations;
  perIteration.push((written.bytes - before) / Math.max(1, ran));
}
(globalThis as { gc?: () => void }).gc?.();
const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
const lastEnd = logger.events.filter((event) => event.event === "iteration_end").at(-1);
console.log("\nstate written per iteration, a plan worked and pruned (10 open tasks)");
console.log(
  `  iterations 1–100: ${perIteration[0]?.toFixed(0)} B · 500–1,000: ${perIteration[2]?.toFixed(0)} B · 1,000–2,000: ${perIteration[3]?.toFixed(0)} B per iteration  target: flat (issue 15 measured 8 KB → 62 KB)`,
);
console.log(
  `  last iteration_end event: ${JSON.stringify(lastEnd).length} B  (lists completed_tasks: bounded by the plan and the last 100 deleted completions)`,
);
console.log(
  `  heap after 10,000 iterations (memory store and logger): ${heapMb.toFixed(1)} MB  before: 425 MB`,
);
