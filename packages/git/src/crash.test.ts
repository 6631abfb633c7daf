import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleWithCore } from "../../../test/support/bundle-with-core.js";
import { gitWorkspaces } from "./git-workspaces.js";
import { readJournal } from "./integration-journal.js";
import {
  createTestRepository,
  isolatedGitEnvironment,
  type TestRepository,
} from "./test-repository.js";

// Kills a stand-in engine (fixtures/crash-worker.mjs: two lanes of open, edit, save, integrate,
// close) with SIGKILL of its whole process group — git children included — at random moments,
// then runs recover() and checks the repository after each kill. The worker imports a bundle
// of this package's source (esbuild, tsup's own dependency), so each start costs little more
// than node's own. LOOP_GIT_CRASH_KILLS raises the number of kills; LOOP_GIT_CRASH_SEED
// replays a run.

const kills = Math.max(50, Number(process.env.LOOP_GIT_CRASH_KILLS ?? 0) || 0);
const seed = Number(process.env.LOOP_GIT_CRASH_SEED ?? 0) || Math.floor(Math.random() * 2 ** 31);
const worker = fileURLToPath(new URL("./fixtures/crash-worker.mjs", import.meta.url));
const source = fileURLToPath(new URL("./index.ts", import.meta.url));

/** The part of esbuild's API this test uses. */
function bundle(directory: string): Promise<string> {
  return bundleWithCore(source, join(directory, "loop-git.bundle.mjs"));
}

/** A seeded generator (mulberry32), so a failing run can be replayed. */
function generator(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let repository: TestRepository;
let bundlePath: string;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "loop-git-crash-"));
  bundlePath = await bundle(scratch);
  repository = await createTestRepository({ "shared.txt": "line 1\nline 2\nline 3\n" });
}, 60_000);

afterAll(async () => {
  await repository?.remove();
  await rm(scratch, { recursive: true, force: true });
});

/** Runs the worker for `ms`, then kills its process group; its stderr if it died on its own. */
function runAndKill(ms: number, workerSeed: number, logPath: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        worker,
        bundlePath,
        repository.repo,
        repository.root,
        repository.planPath,
        logPath,
        String(workerSeed),
      ],
      {
        detached: true,
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, ...isolatedGitEnvironment },
      },
    );
    let stderr = "";
    let killed = false;
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      killed = true;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, ms);
    child.on("exit", () => {
      clearTimeout(timer);
      resolve(killed ? null : `exited on its own: ${stderr}`);
    });
  });
}

describe("kill -9 at random moments", () => {
  it(`leaves a repository that recover() puts right, ${kills} times (seed ${seed})`, {
    timeout: 240_000,
  }, async () => {
    const random = generator(seed);
    const logPath = join(scratch, "saves.jsonl");
    const root = () => repository.root;
    const started = Date.now();
    let integrations = 0;
    let recovering = 0;
    for (let kill = 0; kill < kills; kill += 1) {
      const context = `seed ${seed}, kill ${kill}`;
      const ms = 200 + Math.floor(random() * 1600);
      const died = await runAndKill(ms, Math.floor(random() * 2 ** 31), logPath);
      expect(died, context).toBeNull();
      const stateDirectory = join(repository.repo, ".git", "loop");
      const journal = await readJournal(stateDirectory);
      const resume = ["TASK-1", "TASK-3", "ünï ✓ -x"].filter(() => random() < 0.3);
      // The whole process group was killed: no git survives to release a lock, so a short wait
      // does what the default 2 s does, sooner.
      const workspaces = gitWorkspaces({
        repo: repository.repo,
        root: root(),
        planPath: repository.planPath,
        lockTimeoutMs: 100,
      });
      const recoverStarted = Date.now();
      const report = await workspaces.recover({ resume });
      recovering += Date.now() - recoverStarted;
      integrations += report.integrations.length;

      expect(await repository.git(["fsck", "--no-dangling"]), context).toBe("");
      expect(existsSync(join(repository.repo, ".git", "MERGE_HEAD")), context).toBe(false);
      const head = (await repository.git(["rev-parse", "HEAD"])).trim();
      if (journal !== null) expect([journal.backup, journal.target], context).toContain(head);
      const status = (await repository.git(["status", "--porcelain", "--untracked-files=all"]))
        .split("\n")
        .filter((line) => line !== "");
      expect(
        status.filter((line) => line.slice(3) !== "plan.md"),
        context,
      ).toEqual([]);
      const reachable = new Set(
        (await repository.git(["rev-list", "--branches"]))
          .split("\n")
          .filter((line) => line !== ""),
      );
      const log = existsSync(logPath) ? await readFile(logPath, "utf8") : "";
      for (const line of log.split("\n")) {
        if (!line.startsWith('{"saved"')) continue;
        const saved = (() => {
          try {
            return JSON.parse(line) as { saved: string; id: string };
          } catch {
            return null; // the last line, torn by the kill
          }
        })();
        if (saved !== null)
          expect(reachable.has(saved.saved), `${context}: ${saved.id} ${saved.saved}`).toBe(true);
      }
      const reopened = new Set(
        await Promise.all(report.reopened.map((workspace) => realpath(workspace.path))),
      );
      const left = existsSync(root()) ? await readdir(root()) : [];
      const realRoot = await realpath(root());
      expect(
        left.filter((name) => !reopened.has(join(realRoot, name))),
        context,
      ).toEqual([]);
      const worktrees = (await repository.git(["worktree", "list", "--porcelain"]))
        .split("\n")
        .filter((line) => line.startsWith("worktree ") && dirname(line.slice(9)) === realRoot)
        .map((line) => basename(line.slice(9)));
      expect(
        worktrees.filter((name) => !reopened.has(join(realRoot, name))),
        context,
      ).toEqual([]);
    }
    const lines = (await readFile(logPath, "utf8")).split("\n");
    const saves = lines.filter((line) => line.startsWith('{"saved"')).length;
    const kinds = ["integrated", "conflict", "refused"].map(
      (kind) =>
        `${lines.filter((line) => line.includes(`"integration":"${kind}"`)).length} ${kind}`,
    );
    const merges = (await repository.git(["rev-list", "--count", "--first-parent", "HEAD"])).trim();
    console.log(
      `git crash test: ${kills} kills in ${Math.round((Date.now() - started) / 1000)} s, seed ${seed}; ${saves} saves (${kinds.join(", ")}), ${merges} commits on the main line, ${integrations} interrupted integrations recovered; ${Math.round(recovering / 1000)} s in recover()`,
    );
  });
});
