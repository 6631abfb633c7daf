import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExecutionRequest } from "@loop/core";
import { CommandExecutor, gitProgress } from "@loop/exec";
import { afterEach, describe, expect, it } from "vitest";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "loop-exec-git-"));
  directories.push(directory);
  return directory;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, {
    cwd,
    stdio: "ignore",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
}

function repository(): string {
  const cwd = temporaryDirectory();
  git(cwd, "init", "-q");
  writeFileSync(join(cwd, "a.txt"), "a\n");
  git(cwd, "add", ".");
  git(cwd, "commit", "-q", "-m", "first");
  return cwd;
}

describe("gitProgress", () => {
  it("checks its options first", () => {
    expect(() => gitProgress({} as never)).toThrow(
      "gitProgress: Missing required option `cwd` or `cwds`",
    );
  });

  it("counts working-tree changes and files in new commits", async () => {
    const cwd = repository();
    const probe = gitProgress({ cwd });
    const snapshot = await probe.before();
    writeFileSync(join(cwd, "b.txt"), "b\n");
    git(cwd, "add", "b.txt");
    git(cwd, "commit", "-q", "-m", "second");
    writeFileSync(join(cwd, "a.txt"), "changed\n");
    writeFileSync(join(cwd, "c.txt"), "untracked\n");
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 3, commits: 1 });
  });

  it("counts nothing when nothing changed", async () => {
    const probe = gitProgress({ cwds: [repository(), repository()] });
    expect(await probe.after(await probe.before())).toEqual({ filesChanged: 0, commits: 0 });
  });

  it("counts zeros, not an error, outside a repository", async () => {
    const cwd = temporaryDirectory();
    const probe = gitProgress({ cwd });
    const snapshot = await probe.before();
    writeFileSync(join(cwd, "x.txt"), "x\n");
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 0, commits: 0 });
  });

  it("fills filesChanged of a CommandExecutor run", async () => {
    const cwd = repository();
    const executor = new CommandExecutor({
      command: process.execPath,
      args: ["-e", "require('node:fs').writeFileSync('new.txt', 'n')"],
      cwd,
      progress: gitProgress({ cwd }),
    });
    const request = { prompt: "p" } as ExecutionRequest;
    const result = await executor.execute(request, { signal: new AbortController().signal });
    expect(result).toMatchObject({ success: true, filesChanged: 1 });
  });

  it("measures against the baseline: a file changed before the run and edited again counts", async () => {
    const cwd = repository();
    writeFileSync(join(cwd, "a.txt"), "changed before the run\n");
    writeFileSync(join(cwd, "new.txt"), "new before the run\n");
    const probe = gitProgress({ cwd });
    const snapshot = await probe.before();
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 0, commits: 0 });
    writeFileSync(join(cwd, "a.txt"), "changed before the run, and again\n");
    appendFileSync(join(cwd, "new.txt"), "and more\n");
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 2, commits: 0 });
  });

  it("leaves out the loop's own files, their rotated copies and temporary files", async () => {
    const cwd = repository();
    mkdirSync(join(cwd, "sub"));
    const probe = gitProgress({
      cwd: join(cwd, "sub"),
      exclude: [join(cwd, ".claude", "loop", "logs"), "../.claude/loop/status.json"],
    });
    const snapshot = await probe.before();
    mkdirSync(join(cwd, ".claude", "loop", "logs"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "loop", "logs", "decision.log"), "{}\n");
    writeFileSync(join(cwd, ".claude", "loop", "status.json"), "{}");
    writeFileSync(join(cwd, ".claude", "loop", "status.json.1"), "{}");
    writeFileSync(join(cwd, ".claude", "loop", ".status.json.123.0123456789ab.tmp"), "{}");
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 0, commits: 0 });
    // An agent that commits them still made no progress with them.
    git(cwd, "add", "-A");
    git(cwd, "commit", "-q", "-m", "loop files");
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 0, commits: 1 });
    writeFileSync(join(cwd, ".claude", "loop", "config.yaml"), "version: 1\n");
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 1, commits: 1 });
  });

  it("outside git, measures a bounded snapshot of the files with outsideGit: snapshot", async () => {
    const cwd = temporaryDirectory();
    writeFileSync(join(cwd, "kept.txt"), "k\n");
    writeFileSync(join(cwd, "edited.txt"), "e\n");
    mkdirSync(join(cwd, "node_modules"));
    const probe = gitProgress({ cwd, outsideGit: "snapshot", exclude: ["status.json"] });
    const snapshot = await probe.before();
    expect(snapshot.repositories[0]).toMatchObject({ kind: "tree", truncated: false });
    writeFileSync(join(cwd, "edited.txt"), "edited, longer\n");
    writeFileSync(join(cwd, "added.txt"), "a\n");
    writeFileSync(join(cwd, "status.json"), "{}");
    writeFileSync(join(cwd, "node_modules", "dependency.js"), "");
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 2, commits: 0 });
  });

  it("says when the snapshot stopped at maxFiles, and counts changes among the files it saw", async () => {
    const cwd = temporaryDirectory();
    for (const name of ["a.txt", "b.txt", "c.txt"]) writeFileSync(join(cwd, name), name);
    const probe = gitProgress({ cwd, outsideGit: "snapshot", maxFiles: 2 });
    const snapshot = await probe.before();
    expect(snapshot.repositories[0]).toMatchObject({ kind: "tree", truncated: true });
    writeFileSync(join(cwd, "c.txt"), "unseen change");
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 0, commits: 0 });
    writeFileSync(join(cwd, "a.txt"), "seen change");
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 1, commits: 0 });
  });

  it("refuses options that are not what it takes", () => {
    expect(() => gitProgress({ cwd: ".", exclude: [""] })).toThrow(
      "gitProgress: option `exclude` must be an array of non-empty paths",
    );
    expect(() => gitProgress({ cwd: ".", outsideGit: "walk" as never })).toThrow(
      'gitProgress: option `outsideGit` must be "ignore" or "snapshot", got "walk"',
    );
    expect(() => gitProgress({ cwd: ".", maxFiles: 0 })).toThrow(
      "gitProgress: option `maxFiles` must be a whole number of at least 1, got 0",
    );
  });

  it("reads paths with spaces, staged renames and a repository before its first commit", async () => {
    const cwd = repository();
    writeFileSync(join(cwd, "with space.txt"), "s\n");
    const probe = gitProgress({ cwd });
    const snapshot = await probe.before();
    appendFileSync(join(cwd, "with space.txt"), "edited\n");
    git(cwd, "mv", "a.txt", "renamed a.txt");
    // The untracked file edited again, and the rename (one path: its new name).
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 2, commits: 0 });

    const fresh = temporaryDirectory();
    git(fresh, "init", "-q");
    writeFileSync(join(fresh, "first.txt"), "1\n");
    const first = gitProgress({ cwd: fresh });
    const before = await first.before();
    expect(before.repositories[0]).toMatchObject({ kind: "git", head: null });
    git(fresh, "add", ".");
    git(fresh, "commit", "-q", "-m", "first");
    expect(await first.after(before)).toEqual({ filesChanged: 1, commits: 1 });
  });

  it("runs git once per snapshot (and once more to find the top level, the first time)", async () => {
    const cwd = repository();
    const runs = await gitRuns(async () => {
      const probe = gitProgress({ cwd });
      for (let iteration = 0; iteration < 3; iteration += 1) {
        const snapshot = await probe.before();
        writeFileSync(join(cwd, `file-${iteration}.txt`), "x\n");
        expect(await probe.after(snapshot)).toEqual({ filesChanged: 1, commits: 0 });
      }
    });
    expect(runs).toHaveLength(1 + 3 * 2);
    expect(runs[0]).toBe("rev-parse --show-toplevel");
    expect(runs.slice(1).every((run) => run.startsWith("status --porcelain=v2 --branch"))).toBe(
      true,
    );
  });

  it("with running(), its git waits for after(): it sees the run's changes made after running(), and git runs once a run", async () => {
    const cwd = repository();
    const runs = await gitRuns(async () => {
      const probe = gitProgress({ cwd, reuseWithinMs: 60_000 });
      for (let iteration = 0; iteration < 3; iteration += 1) {
        const snapshot = await probe.before();
        probe.running?.(snapshot);
        // The waiting git has started (its shell is up) before the run changes anything.
        await new Promise((resolve) => setTimeout(resolve, 50));
        writeFileSync(join(cwd, `file-${iteration}.txt`), "x\n");
        expect(await probe.after(snapshot)).toEqual({ filesChanged: 1, commits: 0 });
      }
    });
    expect(runs).toHaveLength(1 + 1 + 3);
  });

  it("a running() git not used (another before(), another snapshot) ends without running", async () => {
    const cwd = repository();
    const runs = await gitRuns(async () => {
      const probe = gitProgress({ cwd });
      const first = await probe.before();
      probe.running?.(first);
      // The run was abandoned: the next run's before() discards the waiting git.
      const second = await probe.before();
      writeFileSync(join(cwd, "b.txt"), "b\n");
      expect(await probe.after(second)).toEqual({ filesChanged: 1, commits: 0 });
      // A stale snapshot's after() runs its own git.
      probe.running?.(second);
      expect(await probe.after(first)).toEqual({ filesChanged: 1, commits: 0 });
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    // The top level, two before()s and two after()s: the discarded ones never ran git.
    expect(runs).toHaveLength(1 + 2 + 2);
  });

  it("never writes the repository's index (git status in the background takes no lock)", async () => {
    const cwd = repository();
    const index = join(cwd, ".git", "index");
    const probe = gitProgress({ cwd });
    const snapshot = await probe.before();
    probe.running?.(snapshot);
    // The same content written anew: git status would refresh the entry and write the index.
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(join(cwd, "a.txt"), "a\n");
    const before = statSync(index);
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 0, commits: 0 });
    const again = await probe.before();
    expect(await probe.after(again)).toEqual({ filesChanged: 0, commits: 0 });
    const after = statSync(index);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it("CommandExecutor tells the probe once its agent runs", async () => {
    const cwd = repository();
    const calls: string[] = [];
    const probe = gitProgress({ cwd });
    const executor = new CommandExecutor({
      command: process.execPath,
      // The agent waits long enough for running() to come first, then writes.
      args: ["-e", "setTimeout(() => require('node:fs').writeFileSync('new.txt', 'n'), 200)"],
      cwd,
      progress: {
        before: (options) => probe.before(options).finally(() => calls.push("before")),
        running: (snapshot) => {
          calls.push("running");
          probe.running?.(snapshot);
        },
        after: (snapshot) => {
          calls.push("after");
          return probe.after(snapshot);
        },
      },
    });
    const request = { prompt: "p" } as ExecutionRequest;
    const result = await executor.execute(request, { signal: new AbortController().signal });
    expect(result).toMatchObject({ success: true, filesChanged: 1 });
    expect(calls).toEqual(["before", "running", "after"]);
  });

  it("with reuseWithinMs, takes the tree the last run left as the next baseline: one git run per run", async () => {
    const cwd = repository();
    const runs = await gitRuns(async () => {
      const probe = gitProgress({ cwd, reuseWithinMs: 60_000 });
      for (let iteration = 0; iteration < 3; iteration += 1) {
        const snapshot = await probe.before();
        writeFileSync(join(cwd, `file-${iteration}.txt`), "x\n");
        // Each run counts its own file only, not the ones the runs before it left.
        expect(await probe.after(snapshot)).toEqual({ filesChanged: 1, commits: 0 });
      }
    });
    expect(runs).toHaveLength(1 + 1 + 3);
  });

  it("with reuseWithinMs, the plan the loop rewrote between runs is not progress; the run's edit of it is", async () => {
    const cwd = repository();
    const plan = join(cwd, "plan.md");
    writeFileSync(plan, "- [ ] TASK-1 a\n- [ ] TASK-2 b\n");
    git(cwd, "add", ".");
    git(cwd, "commit", "-q", "-m", "plan");
    const probe = gitProgress({ cwd, reuseWithinMs: 60_000 });
    expect(await probe.after(await probe.before())).toEqual({ filesChanged: 0, commits: 0 });
    // The loop edits the committed plan (now ` M` in git) between two runs.
    writeFileSync(plan, "- [ ] TASK-1 a\n- [ ] TASK-2 b\n\nSTATUS: working\n");
    const quiet = await probe.before({ rewritten: [plan] });
    expect(await probe.after(quiet)).toEqual({ filesChanged: 0, commits: 0 });
    // The loop edits it again; then the run checks a box: same size, maybe the same clock tick.
    writeFileSync(plan, "- [ ] TASK-1 a\n- [ ] TASK-2 b\n\nSTATUS: working!\n");
    const busy = await probe.before({ rewritten: [plan] });
    const edited = join(cwd, "plan.md.new");
    writeFileSync(edited, "- [x] TASK-1 a\n- [ ] TASK-2 b\n\nSTATUS: working!\n");
    renameSync(edited, plan);
    expect(await probe.after(busy)).toEqual({ filesChanged: 1, commits: 0 });
  });

  it("with reuseWithinMs, a file git lists that changes between runs is not the next run's progress", async () => {
    const cwd = repository();
    // `loop run 2> run.log` in the project: the loop's own output, written between the runs.
    const output = join(cwd, "run.log");
    writeFileSync(output, "iteration 1: TASK-001\n");
    const probe = gitProgress({ cwd, reuseWithinMs: 60_000 });
    const first = await probe.before();
    writeFileSync(join(cwd, "a.txt"), "the agent's edit\n");
    expect(await probe.after(first)).toEqual({ filesChanged: 1, commits: 0 });
    for (let iteration = 2; iteration <= 4; iteration += 1) {
      appendFileSync(
        output,
        `iteration ${iteration - 1} ended\niteration ${iteration}: TASK-001\n`,
      );
      // A stuck agent changes nothing: no progress, whatever the loop printed meanwhile.
      expect(await probe.after(await probe.before())).toEqual({ filesChanged: 0, commits: 0 });
    }
    // The run.log removed between runs, and not brought back: no progress either.
    rmSync(output);
    expect(await probe.after(await probe.before())).toEqual({ filesChanged: 0, commits: 0 });
    // An agent that edits a file git lists still makes progress.
    const snapshot = await probe.before();
    appendFileSync(join(cwd, "a.txt"), "and again\n");
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 1, commits: 0 });
  });

  it("with reuseWithinMs, outside git, the folder is walked afresh: the plan the loop rewrote is not progress", async () => {
    const cwd = temporaryDirectory();
    const plan = join(cwd, "plan.md");
    writeFileSync(plan, "- [ ] TASK-1 a\n");
    const probe = gitProgress({ cwd, outsideGit: "snapshot", reuseWithinMs: 60_000 });
    expect(await probe.after(await probe.before())).toEqual({ filesChanged: 0, commits: 0 });
    writeFileSync(plan, "- [ ] TASK-1 a\n\nSTATUS: working\n");
    const snapshot = await probe.before({ rewritten: [plan] });
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 0, commits: 0 });
  });

  it("takes a new baseline when the last run ended longer ago than reuseWithinMs", async () => {
    const cwd = repository();
    const probe = gitProgress({ cwd, reuseWithinMs: 1 });
    expect(await probe.after(await probe.before())).toEqual({ filesChanged: 0, commits: 0 });
    // Someone edits a file while the loop waits (a rate limit): not the next run's progress.
    writeFileSync(join(cwd, "a.txt"), "edited during the wait\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
    const snapshot = await probe.before();
    expect(await probe.after(snapshot)).toEqual({ filesChanged: 0, commits: 0 });
  });

  it("refuses a reuseWithinMs that is not a number of milliseconds", () => {
    expect(() => gitProgress({ cwd: ".", reuseWithinMs: -1 })).toThrow(
      "gitProgress: option `reuseWithinMs` must be a number of milliseconds of at least 0, got -1",
    );
  });
});

/** Runs `task` with a `git` on PATH that records each run's arguments; returns them, in order. */
async function gitRuns(task: () => Promise<void>): Promise<string[]> {
  const shims = temporaryDirectory();
  const log = join(shims, "runs.log");
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFileSync(join(shims, "git"), `#!/bin/sh\necho "$*" >> "${log}"\nexec "${realGit}" "$@"\n`, {
    mode: 0o755,
  });
  const path = process.env.PATH;
  process.env.PATH = `${shims}:${path ?? ""}`;
  try {
    await task();
  } finally {
    process.env.PATH = path;
  }
  return readFileSync(log, "utf8").trim().split("\n");
}
