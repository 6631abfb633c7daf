import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";

// A throwaway git project for benches that run the built `loop` CLI: a real repository with one
// commit, the plan and a stub agent, and its own HOME (state lives in the default place, the
// project's .claude/loop/state).

/**
 * The stub agent: checks the plan's first open box and exits (`grep`, then `sed -i` only when
 * a box is open, so a wrap-up run changes nothing and the loop ends there). Three processes:
 * `sh`, `grep`, `sed`.
 */
export const STUB_AGENT = `grep -q '^- \\[ \\]' plan.md || exit 0\nexec sed -i '0,/^- \\[ \\]/s//- [x]/' plan.md\n`;

/** The `--cmd` that runs {@link STUB_AGENT}. */
export const STUB_COMMAND = "sh stub.sh";

/** A plan of `tasks` open tasks. */
export function planOf(tasks: number): string {
  const items = Array.from(
    { length: tasks },
    (_, index) => `- [ ] TASK-${index + 1} Part ${index + 1}`,
  );
  return `# Bench plan\n\n## Tasks\n\n${items.join("\n")}\n`;
}

/** A bench project: a git repository holding the plan and the stub agent. */
export interface BenchProject {
  /** The project folder. */
  readonly dir: string;
  /** The environment the CLI runs with. */
  readonly env: Record<string, string>;
  /** Deletes the project and its HOME. */
  remove(): void;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

/** Makes a git repository with `plan.md` (`tasks` open tasks) and `stub.sh`, committed. */
export function createBenchProject(tasks: number): BenchProject {
  const home = mkdtempSync(join(tmpdir(), "loop-bench-home-"));
  const dir = join(home, "project");
  mkdirSync(dir);
  git(dir, "init", "-q");
  git(dir, "config", "user.email", "bench@example.com");
  git(dir, "config", "user.name", "bench");
  git(dir, "config", "commit.gpgsign", "false");
  writeFileSync(join(dir, "plan.md"), planOf(tasks));
  writeFileSync(join(dir, "stub.sh"), STUB_AGENT);
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "plan");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    LOOP_TERMINAL_ID: "bench",
    NO_COLOR: "1",
  };
  return { dir, env, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/** When each iteration of a `loop run --json` started and ended, and the whole process's time. */
export interface TimedRun {
  /** `performance.now()` at each `iteration-start` line, in order. */
  readonly starts: readonly number[];
  /** `performance.now()` at each `iteration-end` line, in order. */
  readonly ends: readonly number[];
  /**
   * The CLI process's own CPU time (all its threads, children not included) at each
   * `iteration-start` line, in milliseconds; empty where `/proc` cannot tell.
   */
  readonly cpuAtStarts: readonly number[];
  /** The process's whole run, start-up included, in milliseconds. */
  readonly wallMs: number;
  /** The `result` line. */
  readonly result: { readonly exitReason: string; readonly iterations: number } | null;
  /** The exit code. */
  readonly code: number | null;
  /** What it wrote to stderr. */
  readonly stderr: string;
}

/**
 * Runs `command args…` in the project and times each iteration from the `--json` lines as they
 * arrive (the events are written when they happen).
 */
export function timedRun(
  project: BenchProject,
  command: string,
  args: readonly string[],
): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, [...args], {
      cwd: project.dir,
      env: project.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const starts: number[] = [];
    const ends: number[] = [];
    const cpuAtStarts: number[] = [];
    let result: TimedRun["result"] = null;
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const at = performance.now();
      if (line.startsWith('{"type":"iteration-start"')) {
        starts.push(at);
        const cpu = child.pid === undefined ? null : cpuTimeMs(child.pid);
        if (cpu !== null) cpuAtStarts.push(cpu);
      } else if (line.startsWith('{"type":"iteration-end"')) ends.push(at);
      else if (line.startsWith('{"type":"result"')) result = JSON.parse(line);
    });
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({
        starts,
        ends,
        cpuAtStarts,
        wallMs: performance.now() - started,
        result,
        code,
        stderr,
      });
    });
  });
}

/**
 * A process's CPU time so far, all threads, in milliseconds (the `schedstat` of each of Linux's `/proc/<pid>/task/<tid>`,
 * nanosecond precision); `null` where it cannot be read.
 */
export function cpuTimeMs(pid: number): number | null {
  try {
    let total = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8");
      total += Number(text.split(" ")[0]);
    }
    return total / 1e6;
  } catch {
    return null;
  }
}

/**
 * Runs `command args…` in `cwd` the way `CommandExecutor` starts an agent (its own process
 * group, pipes for its output) and resolves with how long it took, spawn to close.
 */
export function timedSpawn(command: string, args: readonly string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, [...args], {
      cwd,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdout.resume();
    child.stderr.resume();
    // EPIPE: the stub exits without reading its prompt (as CommandExecutor ignores it too).
    child.stdin.on("error", () => undefined);
    child.stdin.end("the prompt\n");
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - started));
  });
}

/** The median of `values` (0 for none). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
