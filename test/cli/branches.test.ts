import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parsePlan } from "@loop/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initGitRepository } from "../support/git-repository.js";
import { runCliProcess } from "./support.js";

// `loop branches` as a user runs it, on work `loop run --parallel` really kept: a real git
// repository, the default state location, HOME a temp folder, the stand-in agents of
// test/fixtures/worktree-agent.mjs. TASK-1 and TASK-2 edit the same line (one conflicts and is
// kept, then done on a re-run); TASK-3's agent fails every attempt (given up, its work kept).

const AGENT = fileURLToPath(new URL("../fixtures/worktree-agent.mjs", import.meta.url));
const PLAN = [
  "# Plan",
  "",
  "## Modules (parallel)",
  "",
  "- [ ] TASK-1 Add module 1",
  "- [ ] TASK-2 Add module 2",
  "- [ ] TASK-3 Add module 3",
  "",
].join("\n");

interface AgentRecord {
  readonly type: "start" | "end";
  readonly task: string | null;
  readonly cwd: string;
  readonly files?: readonly string[];
}

interface KeptJson {
  readonly kept: readonly {
    readonly branch: string;
    readonly taskId: string;
    readonly title: string | null;
    readonly status: string;
    readonly keptAt: string | null;
    readonly commits: number;
  }[];
}

let home: string;
let dir: string;
const log = () => join(home, "agents.log");
const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? "",
  HOME: home,
  NO_COLOR: "1",
  WORKTREE_AGENT_LOG: log(),
  ...extra,
});
const loop = (args: readonly string[]) => runCliProcess(args, dir, env());
const run = (extra: Record<string, string> = {}) =>
  runCliProcess(
    [
      "run",
      "--parallel",
      "2",
      "--executor",
      "command",
      "--cmd",
      `${process.execPath} ${AGENT}`,
      "-p",
      "prompt.md",
    ],
    dir,
    env(extra),
    { timeoutMs: 120_000 },
  );
const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
const records = (): AgentRecord[] =>
  existsSync(log())
    ? readFileSync(log(), "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as AgentRecord)
    : [];
const state = () =>
  JSON.parse(
    readFileSync(join(dir, ".claude/loop/state/terminals/default/loop_state.json"), "utf8"),
  ) as { failed_tasks: string[]; task_attempts?: Record<string, number> };
const kept = async (): Promise<KeptJson["kept"]> => {
  const listed = await loop(["branches", "--json"]);
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as KeptJson).kept;
};

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "loop-branches-"));
  dir = join(home, "project");
  await mkdir(dir, { recursive: true });
  await initGitRepository(dir, {
    "plan.md": PLAN,
    "prompt.md": "Work on task={{task_id}} ({{kind}}).\n",
    ".gitignore": ".claude/loop/\n",
    "shared.txt": "base\nline\n",
  });
  execFileSync("git", ["config", "user.name", "A User"], { cwd: dir });
  execFileSync("git", ["config", "user.email", "user@example.test"], { cwd: dir });
  await mkdir(join(dir, ".claude/loop"), { recursive: true });
  await writeFile(join(dir, ".claude/loop/config.yaml"), "tasks:\n  max_attempts: 2\n");
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("loop branches, on work loop run --parallel kept", { timeout: 150_000 }, () => {
  it("says how work gets kept while there is none", async () => {
    const listed = await loop(["branches"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`No kept work in ${dir}.`);
    expect(listed.stdout).toContain("when its merge conflicts with the main line");
  });

  it("lists the kept branches of a conflict and of a given-up task, with their tasks", async () => {
    const first = await run({
      WORKTREE_AGENT_SHARED: "TASK-1,TASK-2",
      WORKTREE_AGENT_FAIL: "TASK-3",
      WORKTREE_AGENT_MIN_MS: "300",
      WORKTREE_AGENT_MAX_MS: "300",
    });
    // TASK-3 is given up: no open task can run.
    expect(first.code, first.stderr).toBe(3);
    expect(state().failed_tasks).toEqual(["TASK-3"]);
    const branches = await kept();
    expect(branches.map((entry) => [entry.taskId, entry.status]).sort()).toEqual(
      [
        [expect.stringMatching(/^TASK-[12]$/), "done"],
        ["TASK-3", "given up"],
      ].sort(),
    );
    for (const entry of branches) {
      expect(git("branch", "--list", entry.branch)).toBe(entry.branch);
      expect(entry.title).toBe(`Add module ${entry.taskId.slice(-1)}`);
      expect(entry.commits).toBe(1);
      expect(Date.now() - Date.parse(entry.keptAt ?? "")).toBeLessThan(120_000);
    }
    const table = await loop(["branches", "list"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ {2}branch +task +status +kept \(UTC\) +commits +title$/m);
    const given = branches.find((entry) => entry.taskId === "TASK-3");
    expect(table.stdout).toMatch(
      new RegExp(
        `^  ${given?.branch} +TASK-3 +given up +\\d\\d:\\d\\d:\\d\\d +1 +Add module 3$`,
        "m",
      ),
    );
  });

  it("refuses to retry a done task's work, and names the close match of a misspelt branch", async () => {
    const done = (await kept()).find((entry) => entry.status === "done");
    const refused = await loop(["branches", "retry", done?.branch ?? ""]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`which is done in plan.md (its box is checked)`);
    const typo = (done?.branch ?? "").slice(0, -2);
    const unknown = await loop(["branches", "discard", typo]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      `no kept work is on branch "${typo}" in ${dir}. Did you mean ${done?.branch}?`,
    );
    const missing = await loop(["branches", "retry"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("loop branches retry: missing branch");
  });

  it("discards kept work for good", async () => {
    const done = (await kept()).find((entry) => entry.status === "done");
    const discarded = await loop(["branches", "discard", done?.branch ?? ""]);
    expect(discarded.code, discarded.stderr).toBe(0);
    expect(discarded.stdout).toBe(`Discarded ${done?.branch} (${done?.taskId}, 1 commit).\n`);
    expect(git("branch", "--list", done?.branch ?? "")).toBe("");
    expect((await kept()).map((entry) => entry.taskId)).toEqual(["TASK-3"]);
  });

  it("retries a given-up task from its kept work: the next run goes on from it and completes it", async () => {
    const [given] = await kept();
    const retried = await loop(["branches", "retry", given?.branch ?? ""]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain(`TASK-3 runs again from ${given?.branch}`);
    expect(retried.stdout).toContain(
      "no longer given up on terminal default (2 attempts forgotten)",
    );
    expect(state().failed_tasks).toEqual([]);
    expect(state().task_attempts?.["TASK-3"]).toBeUndefined();
    expect(await kept()).toEqual([]);
    const events = readFileSync(join(dir, ".claude/loop/logs/decision.log"), "utf8");
    expect(events).toContain(`"event":"task_retried"`);

    const before = records().length;
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    const again = records()
      .slice(before)
      .filter((record) => record.type === "start" && record.task === "TASK-3");
    expect(again).toHaveLength(1);
    // Its agent found the draft of its given-up attempts in its worktree.
    expect(again[0]?.files).toContain("TASK-3-draft.txt");
    expect(again[0]?.cwd).not.toBe(dir);
    const plan = parsePlan(readFileSync(join(dir, "plan.md"), "utf8"));
    expect(plan.tasks.every((task) => task.done)).toBe(true);
    expect(git("ls-tree", "--name-only", "HEAD", "src/").split("\n")).toContain(
      "src/TASK-3-draft.txt",
    );
    expect(git("branch", "--list", "loop/*")).toBe("");
    expect(git("worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  });

  it("refuses discard and retry while a loop runs in the project", async () => {
    await writeFile(
      join(dir, "plan.md"),
      `${readFileSync(join(dir, "plan.md"), "utf8")}- [ ] TASK-4 Add module 4\n`,
    );
    const before = records().length;
    const running = run({ WORKTREE_AGENT_MIN_MS: "4000", WORKTREE_AGENT_MAX_MS: "4000" });
    const deadline = Date.now() + 30_000;
    while (
      !records()
        .slice(before)
        .some((record) => record.task === "TASK-4")
    ) {
      if (Date.now() > deadline) throw new Error("TASK-4's agent never started");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const refused = await loop(["branches", "discard", "--all"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/a loop is running on terminal "default" \(pid \d+ on /);
    expect(refused.stderr).toContain("stop it first (Ctrl+C in its terminal), then discard.");
    const retry = await loop(["branches", "retry", "loop/kept/TASK-4/1"]);
    expect(retry.code).toBe(1);
    expect(retry.stderr).toContain("then retry. Kept work never changes under a running loop.");
    expect((await running).code).toBe(0);
  });
});
