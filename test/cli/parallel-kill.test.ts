import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parsePlan } from "@loop/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initGitRepository } from "../support/git-repository.js";
import { LOOP_BIN, runCliProcess } from "./support.js";

// `loop run --parallel` killed with SIGKILL at random moments — while agents work, and while a
// task's work is being brought onto the main line (the integration journal exists) — then run
// again, as a user whose terminal died runs it again. After every kill the repository is sound
// (`git fsck`, never a merge in progress on the main line); the run after it puts right what the
// killed one left; and the last run finishes the plan with every task's work on the main line,
// no worktree left over and no agent of a killed run still working beside a new one.
//
// LOOP_PARALLEL_KILLS raises the number of kills (at least 50); LOOP_PARALLEL_KILL_SEED replays.

const AGENT = fileURLToPath(new URL("../fixtures/worktree-agent.mjs", import.meta.url));
const KILLS = Math.max(50, Number(process.env.LOOP_PARALLEL_KILLS ?? 0) || 0);
const SEED = Number(process.env.LOOP_PARALLEL_KILL_SEED ?? Date.now() % 1_000_000);
const TASKS = 16;
const onLinux = process.platform === "linux";

/** A small seeded generator (mulberry32): the same seed, the same kill moments. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

let home: string;
let dir: string;
let agentLog: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "loop-parallel-kill-"));
  dir = join(home, "project");
  agentLog = join(home, "agents.log");
  await mkdir(dir);
  const tasks = Array.from({ length: TASKS }, (_, n) => `- [ ] TASK-${n + 1} Add module ${n + 1}`);
  await initGitRepository(dir, {
    "plan.md": ["# Plan", "", "## Modules (parallel)", "", ...tasks, ""].join("\n"),
    "prompt.md": "Work on task={{task_id}} ({{kind}}).\n",
    ".gitignore": ".claude/loop/\n",
    "shared.txt": "base\nline\n",
  });
  execFileSync("git", ["config", "user.name", "A User"], { cwd: dir });
  execFileSync("git", ["config", "user.email", "user@example.test"], { cwd: dir });
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
/** What `git fsck` reports, less the half-made worktree administration of a killed add. */
/** The problems one `git fsck` reports, less a half-made worktree's (see the kill loop). */
function fsckOnce(): string[] {
  let output: string;
  try {
    output = execFileSync("git", ["fsck", "--no-dangling"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    output = `${failed.stdout ?? ""}${failed.stderr ?? ""}`;
  }
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter(
      (line) =>
        !/^error: worktrees\/[^/]+\/HEAD: (detached HEAD points at nothing|invalid sha1 pointer)/.test(
          line,
        ),
    );
}

/**
 * The repository's fsck problems that last. An agent of the killed run may still be committing
 * in its worktree (the next run's recovery stops it): fsck lists the objects on disk first and
 * reads refs and reflogs after, so a commit made in between reads as "missing commit X" and
 * "invalid reflog entry X" (once per worktree). That is a write in flight, not damage: a problem
 * only counts when it is still there in each of four checks 300 ms apart.
 */
async function fsckProblems(): Promise<string[]> {
  let problems = fsckOnce();
  for (let attempt = 1; attempt < 4 && problems.length > 0; attempt += 1) {
    await sleep(300);
    problems = fsckOnce();
  }
  return problems;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ARGS = [
  "run",
  "--parallel",
  "3",
  "--merge-agent",
  "--executor",
  "command",
  "--cmd",
  `${process.execPath} ${AGENT}`,
  "-p",
  "prompt.md",
  "--max-iterations",
  "100000",
  "-c",
  "100000",
];

function environment(commit: boolean): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    NO_COLOR: "1",
    WORKTREE_AGENT_LOG: agentLog,
    WORKTREE_AGENT_MIN_MS: "100",
    WORKTREE_AGENT_MAX_MS: "500",
    // Two tasks edit the same line: their merge conflicts, and the merge agent resolves it.
    WORKTREE_AGENT_SHARED: "TASK-3,TASK-4",
    ...(commit ? { WORKTREE_AGENT_COMMIT: "1" } : {}),
  };
}

function start(commit: boolean): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(process.execPath, [LOOP_BIN, ...ARGS], {
    cwd: dir,
    env: environment(commit),
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return { child, exited };
}

const journal = () => join(dir, ".git", "loop", "integration.json");

interface AgentRecord {
  readonly type: "start" | "end" | "overlap";
  readonly pid: number;
  readonly task: string | null;
  readonly at: number;
  readonly other?: number;
}

function records(): AgentRecord[] {
  if (!existsSync(agentLog)) return [];
  return readFileSync(agentLog, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as AgentRecord);
}

/**
 * The agents that found, as they started, an earlier agent on their task still running (the
 * stand-in checks /proc itself: an agent stopped with SIGKILL records no end, so the ends in the
 * log cannot tell).
 */
function sameTaskOverlaps(all: readonly AgentRecord[]): string[] {
  return all
    .filter((record) => record.type === "overlap")
    .map((record) => `${record.task}: ${record.pid} started while ${record.other} ran`);
}

describe.runIf(onLinux)("loop run --parallel killed with SIGKILL, then run again", () => {
  it(`stays sound through ${KILLS} kills and finishes with every task's work merged (seed ${SEED})`, async () => {
    const next = random(SEED);
    let duringMerge = 0;
    for (let kill = 0; kill < KILLS; kill += 1) {
      const loop = start(next() < 0.5);
      // Every other kill waits for an integration to be under way; the others come at random.
      const atMerge = kill % 2 === 1;
      const deadline = Date.now() + 400 + next() * 2500;
      while (Date.now() < deadline) {
        if (atMerge && existsSync(journal())) break;
        await sleep(atMerge ? 2 : 20);
      }
      if (existsSync(journal())) duringMerge += 1;
      loop.child.kill("SIGKILL");
      await loop.exited;
      // Always true, even before the next run puts things right.
      // A kill inside `git worktree add` leaves that worktree's administrative folder half
      // made (its HEAD points at nothing): the next run's recovery removes it, and the fsck at
      // the end is clean. Every other fsck error is one here and now.
      expect(await fsckProblems(), `after kill ${kill} (seed ${SEED})`).toEqual([]);
      expect(existsSync(join(dir, ".git", "MERGE_HEAD")), `kill ${kill}`).toBe(false);
      // A plan finished before the kills are: the user adds tasks, as between runs.
      const planPath = join(dir, "plan.md");
      const tasks = parsePlan(readFileSync(planPath, "utf8")).tasks;
      if (tasks.every((task) => task.done)) {
        const more = [1, 2, 3, 4].map(
          (n) => `- [ ] TASK-${tasks.length + n} Add module ${tasks.length + n}\n`,
        );
        appendFileSync(planPath, more.join(""));
      }
    }

    const last = await runCliProcess(ARGS.slice(), dir, environment(false), { timeoutMs: 240_000 });
    expect(last.code, last.stderr).toBe(0);
    const plan = parsePlan(readFileSync(join(dir, "plan.md"), "utf8"));
    expect(plan.tasks.filter((task) => !task.done).map((task) => task.id)).toEqual([]);
    const merged = git("ls-tree", "--name-only", "HEAD", "src/").split("\n");
    const ids = plan.tasks.map((task) => `src/${task.id}.txt`);
    expect(ids.length).toBeGreaterThanOrEqual(TASKS);
    expect(merged).toEqual(ids.sort());
    const shared = git("show", "HEAD:shared.txt");
    expect(shared).toMatch(/line by TASK-[34]/);
    // Sound and tidy: no half merge, no journal, one worktree, only the plan's boxes uncommitted.
    expect(git("fsck", "--no-dangling")).toBe("");
    expect(existsSync(journal())).toBe(false);
    expect(git("worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(git("status", "--porcelain")).toBe("M plan.md");
    expect(git("show", "HEAD:plan.md")).not.toContain("[x]");
    // Task branches are gone; only kept work (if any) remains, each with its work.
    for (const branch of git("branch", "--list", "--format=%(refname:short)", "loop/*").split(
      "\n",
    )) {
      if (branch === "") continue;
      expect(branch).toMatch(/^loop\/kept\//);
    }
    // A killed run's agent was stopped before its task started again.
    expect(sameTaskOverlaps(records())).toEqual([]);
    console.log(
      `parallel kill test (seed ${SEED}): ${KILLS} kills planned, ${duringMerge} during an integration`,
    );
    expect(duringMerge).toBeGreaterThan(0);
  }, 600_000);
});
