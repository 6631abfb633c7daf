import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median } from "./support/run-project.js";
import { countSyscalls, straceWorks } from "./support/syscall-count.js";

// Parallel runs (issue 16): 8 independent tasks (one `(parallel)` section) whose agents each
// work 1 s and write a file of their own, run by the built CLI in a real git repository — once
// one task at a time (`loop run`), once on 4 workers (`loop run --parallel 4`: a worktree and
// branch per task, merged back one at a time). The figure is the parallel run's wall time as a
// share of the serial run's, both whole runs (start-up and the closing wrap-up included).
// Target: ≤ 40 %. The agent is test/fixtures/worktree-agent.mjs. Build first (`pnpm build`).
// When strace can trace here, one more parallel run and one serial run (agents of 50 ms, not
// timed) count the git executions per task (`strace -f`: git's own children included, the
// start-up's and the wrap-up's spread over the tasks).

const bin = fileURLToPath(new URL("../packages/cli/dist/loop.js", import.meta.url));
const agent = fileURLToPath(new URL("../test/fixtures/worktree-agent.mjs", import.meta.url));
const TASKS = 8;
const WORKERS = 4;
const AGENT_MS = 1000;
const RUNS = 2;
const TARGET = 0.4;

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

function project(): { dir: string; home: string } {
  const home = mkdtempSync(join(tmpdir(), "loop-bench-parallel-"));
  const dir = join(home, "project");
  mkdirSync(dir);
  git(dir, "init", "-q");
  git(dir, "config", "user.email", "bench@example.com");
  git(dir, "config", "user.name", "bench");
  const tasks = Array.from({ length: TASKS }, (_, n) => `- [ ] TASK-${n + 1} Module ${n + 1}`);
  writeFileSync(
    join(dir, "plan.md"),
    ["# Plan", "", "## Modules (parallel)", "", ...tasks, ""].join("\n"),
  );
  writeFileSync(join(dir, "prompt.md"), "Work on task={{task_id}} ({{kind}}).\n");
  writeFileSync(join(dir, ".gitignore"), ".claude/loop/\n");
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "plan");
  return { dir, home };
}

/** The arguments of `node` for one `loop run`. */
function runArgs(extra: readonly string[]): string[] {
  return [bin, "run", "--cmd", `${process.execPath} ${agent}`, "-p", "prompt.md", ...extra];
}

/** The environment of one `loop run`, its agents working `agentMs`. */
function runEnv(home: string, agentMs: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    NO_COLOR: "1",
    WORKTREE_AGENT_MIN_MS: String(agentMs),
    WORKTREE_AGENT_MAX_MS: String(agentMs),
  };
}

/** One whole `loop run`, in milliseconds; throws unless every task is done. */
function timedRun(extra: readonly string[]): Promise<number> {
  const { dir, home } = project();
  const started = performance.now();
  return new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, runArgs(extra), {
      cwd: dir,
      env: runEnv(home, AGENT_MS),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("close", (code) => {
      const took = performance.now() - started;
      rmSync(home, { recursive: true, force: true });
      if (code === 0) resolve(took);
      else reject(new Error(`loop run ${extra.join(" ")} exited ${code}: ${stderr}`));
    });
  });
}

/** The git executions per task of one whole `loop run` under strace (agents of 50 ms). */
function gitPerTask(extra: readonly string[]): number {
  const { dir, home } = project();
  try {
    const counts = countSyscalls(process.execPath, runArgs(extra), {
      cwd: dir,
      env: runEnv(home, 50),
    });
    return (counts.executions.get("git") ?? 0) / TASKS;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (!existsSync(bin)) {
  console.log("\nparallel runs: packages/cli/dist/loop.js is missing; run `pnpm build` first");
} else {
  const serial: number[] = [];
  const parallel: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    serial.push(await timedRun([]));
    parallel.push(await timedRun(["--parallel", String(WORKERS)]));
  }
  const share = median(parallel) / median(serial);
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
  console.log(
    `\nparallel runs: ${TASKS} independent tasks, agents of ${AGENT_MS / 1000} s each, real git, the built CLI`,
  );
  console.log(`  (load average ${load} on ${availableParallelism()} cores)`);
  console.log(`  one at a time     median ${(median(serial) / 1000).toFixed(2)} s  (${RUNS} runs)`);
  console.log(
    `  ${WORKERS} workers         median ${(median(parallel) / 1000).toFixed(2)} s  (${RUNS} runs)`,
  );
  const met = share <= TARGET ? "met" : "MISSED";
  console.log(
    `  speed-up          ${(1 / share).toFixed(2)}×: the parallel run takes ${(share * 100).toFixed(0)} % of the serial one  target ≤ ${TARGET * 100} %, ${met}`,
  );
  // What the worktrees, saves and merges cost beyond the agents' own time, per task.
  const overhead = (median(parallel) - (TASKS / WORKERS + 1) * AGENT_MS) / TASKS;
  console.log(
    `  beyond the agents ${overhead.toFixed(0)} ms per task in the parallel run (worktree, save, merge, the loop's own work)`,
  );
  if (straceWorks()) {
    const parallelGit = gitPerTask(["--parallel", String(WORKERS)]);
    const serialGit = gitPerTask([]);
    console.log(
      `  git executions    ${parallelGit.toFixed(1)} per task in the parallel run, ${serialGit.toFixed(1)} in the serial one (strace -f, git's own children included)`,
    );
  } else console.log("  git executions    (strace cannot trace here: not counted)");
}
