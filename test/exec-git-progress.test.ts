import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
});
