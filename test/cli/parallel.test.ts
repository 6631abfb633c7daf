import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parsePlan } from "@loop/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initGitRepository } from "../support/git-repository.js";
import { LOOP_BIN, runCliProcess } from "./support.js";

// `loop run --parallel N` as a user runs it: a real git repository, the default state location
// (.claude/loop/state), no test-only environment variable, two projects on the machine at once.
// The agents are real processes (test/fixtures/worktree-agent.mjs) that work in their worktrees.

const AGENT = fileURLToPath(new URL("../fixtures/worktree-agent.mjs", import.meta.url));

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "loop-parallel-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

interface AgentRecord {
  readonly type: "start" | "end" | "overlap";
  readonly task: string | null;
  readonly at: number;
  readonly cwd: string;
  readonly files?: readonly string[];
}

/** A project: a git repository holding a plan, the tests' prompt and a .gitignore. */
async function project(name: string, plan: string, files: Record<string, string> = {}) {
  const dir = join(home, name);
  await mkdir(dir, { recursive: true });
  await initGitRepository(dir, {
    "plan.md": plan,
    "prompt.md": "Work on task={{task_id}} ({{kind}}).\n",
    ".gitignore": ".claude/loop/\n",
    ...files,
  });
  execFileSync("git", ["config", "user.name", "A User"], { cwd: dir });
  execFileSync("git", ["config", "user.email", "user@example.test"], { cwd: dir });
  const log = join(dir, "..", `${name}-agents.log`);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
  return {
    dir,
    git,
    run: (args: readonly string[], env: Record<string, string> = {}) =>
      runCliProcess(
        [
          "run",
          "--executor",
          "command",
          "--cmd",
          `${process.execPath} ${AGENT}`,
          "-p",
          "prompt.md",
          ...args,
        ],
        dir,
        {
          PATH: process.env.PATH ?? "",
          HOME: home,
          NO_COLOR: "1",
          WORKTREE_AGENT_LOG: log,
          ...env,
        },
        { timeoutMs: 120_000 },
      ),
    records: (): AgentRecord[] =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter((line) => line !== "")
            .map((line) => JSON.parse(line) as AgentRecord)
        : [],
    plan: () => parsePlan(readFileSync(join(dir, "plan.md"), "utf8")),
    events: (name: string) =>
      readFileSync(join(dir, ".claude/loop/logs/decision.log"), "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { event: string; payload: Record<string, unknown> })
        .filter((event) => event.event === name),
  };
}

function parallelPlan(count: number, after: readonly string[] = []): string {
  const tasks = Array.from(
    { length: count },
    (_, index) => `- [ ] TASK-${index + 1} Add module ${index + 1}`,
  );
  const rest = after.length === 0 ? [] : ["", "## Then", "", ...after];
  return ["# Plan", "", "## Modules (parallel)", "", ...tasks, ...rest, ""].join("\n");
}

/** The most agents whose recorded runs overlapped at one moment. */
function mostAtOnce(records: readonly AgentRecord[]): number {
  const moments = records
    .filter((record) => record.task !== null && record.type !== "overlap")
    .map((record) => ({ at: record.at, delta: record.type === "start" ? 1 : -1 }))
    .sort((a, b) => a.at - b.at || a.delta - b.delta);
  let now = 0;
  let most = 0;
  for (const moment of moments) {
    now += moment.delta;
    most = Math.max(most, now);
  }
  return most;
}

/** What a finished parallel run must leave: a sound repository with no worktree or branch left. */
function expectTidy(repo: Awaited<ReturnType<typeof project>>): void {
  expect(repo.git("fsck", "--no-dangling")).toBe("");
  expect(existsSync(join(repo.dir, ".git", "MERGE_HEAD"))).toBe(false);
  expect(repo.git("worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  // Only the plan (its boxes, checked by the engine) differs from HEAD.
  expect(repo.git("status", "--porcelain")).toBe("M plan.md");
  expect(repo.git("show", "HEAD:plan.md")).not.toContain("[x]");
}

describe("loop run --parallel, real git", () => {
  it("8 independent tasks on 4 workers in two projects at once: all merged, every box checked", async () => {
    const [first, second] = await Promise.all([
      project("eight-a", parallelPlan(8)),
      project("eight-b", parallelPlan(8)),
    ]);
    const [a, b] = await Promise.all([
      first.run(["--parallel", "4"], { WORKTREE_AGENT_COMMIT: "1" }),
      second.run(["--parallel", "4"]),
    ]);
    for (const [repo, result] of [
      [first, a],
      [second, b],
    ] as const) {
      expect(result.code).toBe(0);
      expect(repo.events("loop_exit")[0]?.payload.exit_reason).toBe("all_tasks_complete");
      expect(repo.plan().tasks.every((task) => task.done)).toBe(true);
      const merged = repo.git("ls-tree", "--name-only", "HEAD", "src/").split("\n");
      expect(merged).toEqual(Array.from({ length: 8 }, (_, n) => `src/TASK-${n + 1}.txt`).sort());
      expect(repo.events("task_integrated")).toHaveLength(8);
      expect(repo.git("branch", "--list", "loop/*")).toBe("");
      expect(mostAtOnce(repo.records())).toBeGreaterThanOrEqual(2);
      expect(mostAtOnce(repo.records())).toBeLessThanOrEqual(4);
      // Each task's agent ran in its own worktree, never in the project itself (the wrap-up,
      // once every box is checked, runs there).
      for (const record of repo.records().filter((entry) => entry.task !== null)) {
        expect(record.cwd).not.toBe(repo.dir);
      }
      expectTidy(repo);
    }
  }, 150_000);

  it("a task starts only once the tasks it comes after are merged", async () => {
    const repo = await project("after", parallelPlan(3, ["- [ ] TASK-9 Document the modules"]));
    const result = await repo.run(["--parallel", "4"]);
    expect(result.code).toBe(0);
    const last = repo
      .records()
      .find((record) => record.type === "start" && record.task === "TASK-9");
    expect(last?.files).toEqual(["TASK-1.txt", "TASK-2.txt", "TASK-3.txt"]);
    expectTidy(repo);
  }, 120_000);

  it("two tasks editing the same line: one merges, the other is rolled back, kept and re-run on the new HEAD", async () => {
    const repo = await project("conflict", parallelPlan(2), { "shared.txt": "base\nline\n" });
    const result = await repo.run(["--parallel", "2"], {
      WORKTREE_AGENT_SHARED: "TASK-1,TASK-2",
      WORKTREE_AGENT_MIN_MS: "300",
      WORKTREE_AGENT_MAX_MS: "300",
    });
    expect(result.code).toBe(0);
    expect(repo.plan().tasks.every((task) => task.done)).toBe(true);
    const conflicts = repo.events("merge_conflict");
    expect(conflicts).toHaveLength(1);
    const kept = conflicts[0]?.payload.kept_branch as string;
    const loser = conflicts[0]?.payload.task_id as string;
    const winner = loser === "TASK-1" ? "TASK-2" : "TASK-1";
    // Nothing lost: the first attempt's work is on its kept branch, the winner's in main's
    // history, and the re-run (from the new HEAD, where the winner's line is) is on main.
    expect(repo.git("show", `${kept}:shared.txt`)).toBe(`base\nline by ${loser}`);
    expect(repo.git("log", "-p", "--format=", "HEAD", "--", "shared.txt")).toContain(
      `+line by ${winner}`,
    );
    expect(repo.git("show", "HEAD:shared.txt")).toBe(`base\nline by ${loser}`);
    const rerun = repo
      .records()
      .filter((record) => record.type === "start" && record.task === loser);
    expect(rerun).toHaveLength(2);
    expect(rerun[1]?.files).toContain(`${winner}.txt`);
    expect(repo.git("fsck", "--no-dangling")).toBe("");
    expect(repo.git("worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  }, 120_000);

  it("with --merge-agent the conflict is resolved, keeping both sides, and nothing runs again", async () => {
    const repo = await project("merge-agent", parallelPlan(2), { "shared.txt": "base\nline\n" });
    const result = await repo.run(["--parallel", "2", "--merge-agent"], {
      WORKTREE_AGENT_SHARED: "TASK-1,TASK-2",
      WORKTREE_AGENT_MIN_MS: "300",
      WORKTREE_AGENT_MAX_MS: "300",
    });
    expect(result.code).toBe(0);
    expect(repo.events("merge_conflict")).toHaveLength(0);
    const resolved = repo.events("task_integrated").filter((event) => event.payload.resolved);
    expect(resolved).toHaveLength(1);
    const shared = repo.git("show", "HEAD:shared.txt");
    expect(shared).toContain("line by TASK-1");
    expect(shared).toContain("line by TASK-2");
    expect(
      repo.records().filter((record) => record.type === "start" && record.task !== null),
    ).toHaveLength(2);
    expectTidy(repo);
  }, 120_000);

  it("loop status shows each worker; Ctrl+C stops every worker's agent; loop logs --task shows a worker's log", async () => {
    const repo = await project("ctrl-c", parallelPlan(3));
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      NO_COLOR: "1",
      WORKTREE_AGENT_LOG: join(home, "ctrl-c-agents.log"),
      WORKTREE_AGENT_MIN_MS: "60000",
      WORKTREE_AGENT_MAX_MS: "60000",
    };
    const args = [
      "run",
      "--parallel",
      "3",
      "--cmd",
      `${process.execPath} ${AGENT}`,
      "-p",
      "prompt.md",
    ];
    const child = spawn(process.execPath, [LOOP_BIN, ...args], {
      cwd: repo.dir,
      env,
      stdio: "ignore",
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on("close", (code) => resolve(code)),
    );
    const started = () => repo.records().filter((record) => record.type === "start");
    const deadline = Date.now() + 30_000;
    while (started().length < 3 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(started()).toHaveLength(3);

    const status = await runCliProcess(["status"], repo.dir, env);
    expect(status.stdout).toMatch(/workers\s+3 running/);
    for (const task of ["TASK-1", "TASK-2", "TASK-3"]) {
      expect(status.stdout).toMatch(new RegExp(`${task}\\s+\\S+\\s+attempt 1\\s+loop/${task}`));
    }

    child.kill("SIGINT");
    expect(await exited).toBe(130);
    // Every agent got SIGTERM and ended before the loop exited.
    const ends = repo.records().filter((record) => record.type === "end");
    expect(ends.map((record) => record.task).sort()).toEqual(["TASK-1", "TASK-2", "TASK-3"]);
    for (const record of started()) {
      expect(existsSync(`/proc/${(record as unknown as { pid: number }).pid}`)).toBe(false);
    }
    // Their working copies stay for the next run; the state names no running worker.
    const worktrees = readdirSync(join(repo.dir, ".loop/worktrees"));
    expect(worktrees.length).toBeGreaterThanOrEqual(3);
    const after = await runCliProcess(["status"], repo.dir, env);
    expect(after.stdout).not.toContain("running");
    const logs = await runCliProcess(["logs", "--task", "TASK-2"], repo.dir, env);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain("TASK-2");
  }, 60_000);

  it("refuses --parallel outside a git repository, saying what to do", async () => {
    const dir = join(home, "no-git");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "plan.md"), parallelPlan(2));
    const result = await runCliProcess(
      ["run", "--parallel", "2", "--executor", "command", "--cmd", `${process.execPath} ${AGENT}`],
      dir,
      { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("in no git repository: run `git init` and commit");
  });
});
