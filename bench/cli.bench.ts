import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Measurement, measure, report } from "./measure.js";
import {
  benchPrd,
  createStatusProject,
  createStopHookProject,
} from "./support/startup-projects.js";

// Start-up of the built `loop` binary, a whole process each: `loop --version`, `loop --help`, a
// command's help, and the two commands issue 15 holds to bare node's start-up: `loop status` on
// a 1,000-task plan and the Stop hook's decision on a 1,000-story prd.json, each within 3× of
// `node -e ''` measured in the same run. Targets: `--version` under 150 ms, the two within 3×.
// Build first (`pnpm build`); the bench says so when it cannot.

const bin = fileURLToPath(new URL("../packages/cli/dist/loop.js", import.meta.url));
const coreDist = new URL("../packages/core/dist/index.js", import.meta.url);
const RUNS = { runs: 30, warmup: 3 } as const;
const SIZE = 1_000;

/** `row` with its ratio to the floor, and the 3× target. */
function withinThree(row: Measurement, floor: Measurement): Measurement & { target: string } {
  const ratio = row.medianMs / floor.medianMs;
  const met = ratio <= 3 ? "met" : "not met";
  return {
    ...row,
    target: `≤ 3× node (${(3 * floor.medianMs).toFixed(0)} ms): ${ratio.toFixed(2)}×, ${met}`,
  };
}

/**
 * `parsePrd` on the 1,000-story prd.json in a fresh process (the first call: nothing compiled
 * or warmed up yet, as in the Stop hook), in milliseconds; the median of `runs` processes.
 */
function parsePrdCold(runs: number): Measurement {
  const folder = mkdtempSync(join(tmpdir(), "loop-prd-cold-"));
  try {
    const prdPath = join(folder, "prd.json");
    writeFileSync(prdPath, benchPrd(SIZE));
    const script = `import { readFileSync } from "node:fs";
const { parsePrd } = await import(${JSON.stringify(coreDist.href)});
const text = readFileSync(${JSON.stringify(prdPath)}, "utf8");
const start = performance.now();
parsePrd(text, { file: "prd.json" });
process.stdout.write(String(performance.now() - start));`;
    const durations = Array.from({ length: runs }, () =>
      Number(
        execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }),
      ),
    ).sort((a, b) => a - b);
    const at = (fraction: number) =>
      durations[Math.min(durations.length - 1, Math.floor(fraction * durations.length))] ?? 0;
    return {
      name: `parsePrd, ${SIZE.toLocaleString("en")} stories, cold (in a fresh process)`,
      runs,
      medianMs: at(0.5),
      p95Ms: at(0.95),
      minMs: durations[0] ?? 0,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (!existsSync(bin) || !existsSync(coreDist)) {
  console.log("\nCLI start-up: packages/*/dist is missing; run `pnpm build` first");
} else {
  const statusProject = createStatusProject(bin, SIZE);
  const hookProject = createStopHookProject(bin, SIZE);
  try {
    const bare = await measure(
      "node -e '' (the floor)",
      () => spawnSync(process.execPath, ["-e", ""]),
      RUNS,
    );
    const version = await measure(
      "loop --version",
      () => execFileSync(process.execPath, [bin, "--version"]),
      RUNS,
    );
    const help = await measure(
      "loop --help",
      () => execFileSync(process.execPath, [bin, "--help"]),
      RUNS,
    );
    const statusHelp = await measure(
      "loop status --help (loads a command)",
      () => execFileSync(process.execPath, [bin, "status", "--help"]),
      RUNS,
    );
    const status = await measure(
      `loop status, ${SIZE.toLocaleString("en")}-task plan`,
      () =>
        execFileSync(process.execPath, [bin, "status"], {
          cwd: statusProject.dir,
          env: statusProject.env,
        }),
      RUNS,
    );
    const hook = await measure(
      `loop hook stop, ${SIZE.toLocaleString("en")}-story prd.json`,
      () =>
        execFileSync(process.execPath, [bin, "hook", "stop"], {
          cwd: hookProject.dir,
          env: hookProject.env,
          input: hookProject.input,
        }),
      { ...RUNS, before: hookProject.reset },
    );
    report("CLI start-up (whole process)", [
      bare,
      { ...version, target: "< 150 ms" },
      help,
      statusHelp,
      withinThree(status, bare),
      withinThree(hook, bare),
    ]);
    report("prd.json in the Stop hook", [parsePrdCold(10)]);
  } finally {
    statusProject.remove();
    hookProject.remove();
  }
}
