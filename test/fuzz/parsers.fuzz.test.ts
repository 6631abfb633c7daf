import fc from "fast-check";
import { describe, it } from "vitest";
import { FUZZ_SEED, FUZZ_TARGETS } from "./targets.js";

// Every parser of untrusted text, fuzzed with a fixed seed and a bounded number of inputs so
// that `pnpm test` stays fast and repeatable; `pnpm fuzz` runs 10,000 inputs of each.
const RUNS_PER_TARGET = 300;

describe("fuzzing the parsers (fixed seed)", () => {
  for (const target of FUZZ_TARGETS) {
    it(`${target.name} keeps its promises on ${RUNS_PER_TARGET} generated inputs`, {
      timeout: 60_000,
    }, () => {
      fc.assert(
        fc.property(target.inputs, (input) => target.check(input)),
        {
          seed: FUZZ_SEED,
          numRuns: RUNS_PER_TARGET,
        },
      );
    });
  }
});
