// `pnpm fuzz`: the long fuzz run. Every target of targets.ts gets 10,000 generated inputs (or
// `--runs N`, seed `--seed N`, only `--only name`); each input is timed, failures are listed
// with their input, and the slowest inputs of each parser are printed, so that a parser that
// is slow on some shape shows up before an agent finds it. Exits 1 when a check failed.

import { performance } from "node:perf_hooks";
import fc from "fast-check";
import { FUZZ_SEED, FUZZ_TARGETS } from "./targets.js";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

const runs = Number(option("runs", "10000"));
const seed = Number(option("seed", String(FUZZ_SEED)));
const only = option("only", "");
const slowestShown = 5;
let failed = 0;

console.log(`fuzz: ${runs} inputs per parser, seed ${seed}`);
for (const target of FUZZ_TARGETS) {
  if (only !== "" && target.name !== only) continue;
  const inputs = fc.sample(target.inputs, { seed, numRuns: runs });
  const timed: { readonly ms: number; readonly input: unknown }[] = [];
  const failures: string[] = [];
  const start = performance.now();
  for (const input of inputs) {
    const before = performance.now();
    try {
      target.check(input);
    } catch (error) {
      failures.push(
        `${error instanceof Error ? error.message : String(error)}\n      input: ${target.describe(input)}`,
      );
    }
    timed.push({ ms: performance.now() - before, input });
  }
  const total = performance.now() - start;
  const sorted = [...timed].sort((left, right) => left.ms - right.ms);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]?.ms ?? 0;
  console.log(
    `\n${target.name}: ${inputs.length} inputs in ${(total / 1000).toFixed(1)} s, per input median ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms, max ${at(1).toFixed(2)} ms; ${failures.length} failed`,
  );
  for (const slow of sorted.slice(-slowestShown).reverse()) {
    console.log(`  ${slow.ms.toFixed(1).padStart(8)} ms  ${target.describe(slow.input)}`);
  }
  for (const failure of failures.slice(0, 3)) console.log(`  FAILED ${failure}`);
  failed += failures.length;
}
console.log(failed === 0 ? "\nfuzz: no check failed" : `\nfuzz: ${failed} checks failed`);
process.exitCode = failed === 0 ? 0 : 1;
