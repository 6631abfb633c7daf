import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Workspaces } from "@loop/core";
import { afterEach, describe, expect, it } from "vitest";
import { GitVersionError } from "./git-version-error.js";
import { gitWorkspaces } from "./git-workspaces.js";
import { PlanOutsideRepositoryError } from "./plan-outside-repository-error.js";
import { RepositoryError } from "./repository-error.js";
import { safeTaskId } from "./safe-task-id.js";
import { createTestRepository, isolateGit, type TestRepository } from "./test-repository.js";
import { WorkspaceStateError } from "./workspace-state-error.js";

let repository: TestRepository;
const planText = "# Plan\n\n- [ ] TASK-1 first\n";

function workspacesOf(test: TestRepository, now?: () => number): Workspaces {
  return gitWorkspaces({ repo: test.repo, root: test.root, planPath: test.planPath, now });
}

afterEach(async () => {
  await repository?.remove();
});

const hostileIds = [
  "TASK-1",
  "task-1",
  "fix the bug",
  "a/b/c",
  "../../etc/passwd",
  "..",
  "-rf",
  "--help",
  "ünïcödé 任务 🚀",
  "x.lock",
  "HEAD",
  "a@{1}",
  "semi;colon $(rm -rf ~) `reboot`",
  "tab\tand\nnewline",
  "~^:?*[\\",
  "",
].slice(0, -1);

describe("task ids", () => {
  it("map to distinct names git accepts, with the id kept", () => {
    const names = hostileIds.map(safeTaskId);
    expect(new Set(names).size).toBe(hostileIds.length);
    for (const name of names) {
      expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{12}$/);
      expect(name).not.toContain("..");
    }
    expect(safeTaskId("TASK-1")).toMatch(/^TASK-1-[0-9a-f]{12}$/);
    expect(safeTaskId("..")).toMatch(/^task-[0-9a-f]{12}$/);
  });
});

describe("workspace lifecycle", { timeout: 60_000 }, () => {
  it("opens, saves, keeps and lists workspaces of hostile task ids", async () => {
    repository = await createTestRepository();
    let clock = 1_000;
    const workspaces = workspacesOf(repository, () => clock++);
    const ids = hostileIds.slice(2, 10);
    for (const id of ids) {
      const workspace = await workspaces.open({ id, title: `title of ${id}` }, { planText });
      expect(workspace.taskId).toBe(id);
      expect(await realpath(join(workspace.path, ".."))).toBe(await realpath(repository.root));
      await repository.write("work.txt", `${id}\n`, workspace.path);
      expect(await workspaces.save(workspace, { message: `save ${id}` })).toEqual({
        filesChanged: 1,
        commits: 1,
      });
      const closed = await workspaces.close(workspace, { keep: true });
      expect(closed.keptBranch).toMatch(/^loop\/kept\/[^/]+\/1$/);
    }
    const kept = await workspaces.kept();
    expect(kept.map((work) => work.taskId)).toEqual(ids);
    expect(kept.every((work) => work.commits === 1)).toBe(true);
    expect(kept.map((work) => work.keptAt)).toEqual(
      [...kept.map((work) => work.keptAt)].sort((a, b) => a - b),
    );
    expect(await readdir(repository.root)).toEqual([]);
    expect(await repository.git(["status", "--porcelain", "--untracked-files=all"])).toBe("");
    expect(await repository.git(["fsck", "--no-dangling"])).toBe("");
  });

  it("reopens a task's worktree with its work, the plan copy rewritten", async () => {
    repository = await createTestRepository();
    const workspaces = workspacesOf(repository);
    const first = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("unsaved.txt", "u\n", first.path);
    await first.plan.write("edited by the agent\n");
    const again = await workspaces.open({ id: "TASK-1", title: "t" }, { planText: "new plan\n" });
    expect(again.path).toBe(first.path);
    expect(await readFile(join(again.path, "unsaved.txt"), "utf8")).toBe("u\n");
    expect(await again.plan.read()).toBe("new plan\n");
    // Another instance (a new run) reopens it too.
    const other = workspacesOf(repository);
    const third = await other.open({ id: "TASK-1", title: "t" }, { planText });
    expect(third.path).toBe(first.path);
    expect(await other.save(third, { message: "save" })).toEqual({ filesChanged: 1, commits: 1 });
  });

  it("starts afresh after a kept close, or from the kept branch, which then leaves kept()", async () => {
    repository = await createTestRepository();
    const workspaces = workspacesOf(repository);
    const first = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("attempt.txt", "1\n", first.path);
    const { keptBranch } = await workspaces.close(first, { keep: true });
    expect(keptBranch).not.toBeNull();
    const fresh = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    expect(existsSync(join(fresh.path, "attempt.txt"))).toBe(false);
    await workspaces.close(fresh, { keep: false });
    const resumed = await workspaces.open(
      { id: "TASK-1", title: "t" },
      { planText, from: keptBranch ?? "" },
    );
    expect(await readFile(join(resumed.path, "attempt.txt"), "utf8")).toBe("1\n");
    expect(await workspaces.kept()).toEqual([]);
    await expect(
      workspaces.open({ id: "TASK-2", title: "t" }, { planText, from: "main" }),
    ).rejects.toSatisfy((error) => WorkspaceStateError.isInstance(error));
  });

  it("discards kept work, and only kept work", async () => {
    repository = await createTestRepository();
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("a.txt", "a\n", workspace.path);
    const { keptBranch } = await workspaces.close(workspace, { keep: true });
    await expect(workspaces.discard("main")).rejects.toThrow(/not a kept branch/);
    await workspaces.discard(keptBranch ?? "");
    expect(await workspaces.kept()).toEqual([]);
    expect(await repository.git(["branch", "--list", "loop/*"])).toBe("");
    await expect(workspaces.discard(keptBranch ?? "")).rejects.toSatisfy((error) =>
      WorkspaceStateError.isInstance(error),
    );
  });

  it("opens and saves four workspaces at once", async () => {
    repository = await createTestRepository({ "base.txt": "base\n" });
    const workspaces = workspacesOf(repository);
    const ids = ["T-1", "T-2", "T-3", "T-4"];
    const opened = await Promise.all(
      ids.map((id) => workspaces.open({ id, title: id }, { planText })),
    );
    await Promise.all(
      opened.map((workspace) => repository.write(`${workspace.taskId}.txt`, "x\n", workspace.path)),
    );
    const saves = await Promise.all(
      opened.map((workspace) => workspaces.save(workspace, { message: "save" })),
    );
    expect(saves).toEqual(ids.map(() => ({ filesChanged: 1, commits: 1 })));
    const integrations = await Promise.all(
      opened.map((workspace) =>
        workspaces.integrate(workspace, { message: `Merge ${workspace.taskId}` }),
      ),
    );
    expect(integrations.map((integration) => integration.kind)).toEqual(
      ids.map(() => "integrated"),
    );
    await Promise.all(opened.map((workspace) => workspaces.close(workspace, { keep: false })));
    expect(await repository.git(["ls-tree", "--name-only", "HEAD"])).toBe(
      "T-1.txt\nT-2.txt\nT-3.txt\nT-4.txt\nbase.txt\nplan.md\n",
    );
    expect(await repository.git(["status", "--porcelain", "--untracked-files=all"])).toBe("");
    expect(await repository.git(["worktree", "list", "--porcelain"])).not.toContain("worktrees");
  });

  it("commits with the repository's own identity when it has one", async () => {
    repository = await createTestRepository();
    await repository.git(["config", "user.name", "Repo Owner"]);
    await repository.git(["config", "user.email", "owner@example.test"]);
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("a.txt", "a\n", workspace.path);
    await workspaces.save(workspace, { message: "save" });
    expect(await repository.git(["log", "-1", "--format=%an <%ae>", workspace.branch])).toBe(
      "Repo Owner <owner@example.test>\n",
    );
  });

  it("saves even when a hook would refuse the commit", async () => {
    repository = await createTestRepository();
    await repository.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 1\n");
    const { chmod } = await import("node:fs/promises");
    await chmod(join(repository.repo, ".git/hooks/pre-commit"), 0o755);
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("a.txt", "a\n", workspace.path);
    expect(await workspaces.save(workspace, { message: "save" })).toEqual({
      filesChanged: 1,
      commits: 1,
    });
  });
  it("leaves git's automatic maintenance to the user's own git commands", async () => {
    repository = await createTestRepository({ "src/a.txt": "a\n" });
    // A maintenance task every commit is due for: `git commit` and `git merge` would write the
    // commit graph right after they are done.
    await repository.git(["config", "maintenance.commit-graph.enabled", "true"]);
    await repository.git(["config", "maintenance.commit-graph.auto", "1"]);
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("src/b.txt", "b\n", workspace.path);
    await workspaces.save(workspace, { message: "save" });
    expect(await workspaces.integrate(workspace, { message: "merge" })).toMatchObject({
      kind: "integrated",
    });
    const graphs = join(repository.repo, ".git/objects/info/commit-graphs");
    expect(existsSync(graphs)).toBe(false);
    await repository.git(["commit", "-q", "--allow-empty", "-m", "the user's own"]);
    expect(existsSync(graphs)).toBe(true);
  });

  it("rejects a save whose commit git refuses, and saves once it no longer does", async () => {
    repository = await createTestRepository();
    // `--no-verify` skips pre-commit and commit-msg, not prepare-commit-msg: its refusal is an
    // exit 1 from `git commit`, as "nothing to commit" is — a refusal, never "nothing saved".
    const hook = join(repository.repo, ".git/hooks/prepare-commit-msg");
    await repository.write(".git/hooks/prepare-commit-msg", "#!/bin/sh\nexit 1\n");
    const { chmod, rm } = await import("node:fs/promises");
    await chmod(hook, 0o755);
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("a.txt", "a\n", workspace.path);
    await expect(workspaces.save(workspace, { message: "save" })).rejects.toMatchObject({
      name: "GitCommandError",
    });
    await rm(hook);
    expect(await workspaces.save(workspace, { message: "save" })).toEqual({
      filesChanged: 1,
      commits: 1,
    });
    expect(await workspaces.save(workspace, { message: "again" })).toEqual({
      filesChanged: 0,
      commits: 0,
    });
  });
});

describe("options and repository checks", { timeout: 30_000 }, () => {
  it("checks its options before doing anything", () => {
    expect(() => gitWorkspaces(undefined as never)).toThrow("Missing required option `repo`");
    expect(() => gitWorkspaces({ repo: "/r", root: "/r/w" } as never)).toThrow(
      "Missing required option `planPath`",
    );
    expect(() => gitWorkspaces({ repo: "/r", root: "/r/w", planPath: "plan.md" })).toThrow(
      /must be absolute/,
    );
    expect(() =>
      gitWorkspaces({ repo: "/r", root: "/r/w", planPath: "/elsewhere/plan.md" }),
    ).toThrow(PlanOutsideRepositoryError);
    expect(() =>
      gitWorkspaces({
        repo: "/r",
        root: "/r/w",
        planPath: "/r/plan.md",
        branchPrefix: "bad prefix/",
      }),
    ).toThrow(/branchPrefix/);
  });

  it("names the plan that is not inside the working tree, links resolved", async () => {
    repository = await createTestRepository();
    const { symlink } = await import("node:fs/promises");
    const outside = await mkdtemp(join(tmpdir(), "loop-git-outside-"));
    await symlink(outside, join(repository.repo, "linked"));
    const workspaces = gitWorkspaces({
      repo: repository.repo,
      root: repository.root,
      planPath: join(repository.repo, "linked", "plan.md"),
    });
    const error = await workspaces
      .open({ id: "T", title: "t" }, { planText })
      .catch((caught: unknown) => caught);
    expect(PlanOutsideRepositoryError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(join(repository.repo, "linked", "plan.md"));
  });

  it("names the git version when it is older than 2.38", async () => {
    repository = await createTestRepository();
    const bin = await mkdtemp(join(tmpdir(), "loop-git-old-"));
    const { chmod, writeFile } = await import("node:fs/promises");
    await writeFile(join(bin, "git"), "#!/bin/sh\necho 'git version 2.37.1'\n");
    await chmod(join(bin, "git"), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path ?? ""}`;
    try {
      const error = await workspacesOf(repository)
        .kept()
        .catch((caught: unknown) => caught);
      expect(GitVersionError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain("git version 2.37.1");
    } finally {
      process.env.PATH = path;
    }
  });

  it("refuses a repository without commits, and a folder that is no repository", async () => {
    isolateGit();
    const folder = await mkdtemp(join(tmpdir(), "loop-git-empty-"));
    const { execFile } = await import("node:child_process");
    await new Promise((resolve) => execFile("git", ["init", "-q", folder], resolve));
    const empty = gitWorkspaces({
      repo: folder,
      root: join(folder, "w"),
      planPath: join(folder, "plan.md"),
    });
    const error = await empty
      .open({ id: "T", title: "t" }, { planText })
      .catch((caught: unknown) => caught);
    expect(RepositoryError.isInstance(error) && error.reason).toBe("no-commit");
    const plain = await mkdtemp(join(tmpdir(), "loop-git-plain-"));
    const none = gitWorkspaces({
      repo: plain,
      root: join(plain, "w"),
      planPath: join(plain, "plan.md"),
    });
    const notRepository = await none.kept().catch((caught: unknown) => caught);
    expect(RepositoryError.isInstance(notRepository) && notRepository.reason).toBe(
      "not-a-repository",
    );
  });
});
