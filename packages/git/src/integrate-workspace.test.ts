import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TaskWorkspace, Workspaces } from "@loop/core";
import { afterEach, describe, expect, it } from "vitest";
import { gitWorkspaces } from "./git-workspaces.js";
import { createTestRepository, type TestRepository } from "./test-repository.js";

let repository: TestRepository;
const planText = "# Plan\n\n- [ ] TASK-1 first\n- [ ] TASK-2 second\n";
const shared = "line 1\nline 2\nline 3\n";

afterEach(async () => {
  await repository?.remove();
});

/** Two tasks that both rewrite line 2 of shared.txt, saved. */
async function twoConflictingTasks(): Promise<{
  workspaces: Workspaces;
  first: TaskWorkspace;
  second: TaskWorkspace;
}> {
  repository = await createTestRepository({ "shared.txt": shared });
  const workspaces = gitWorkspaces({
    repo: repository.repo,
    root: repository.root,
    planPath: repository.planPath,
  });
  const first = await workspaces.open({ id: "TASK-1", title: "first" }, { planText });
  const second = await workspaces.open({ id: "TASK-2", title: "second" }, { planText });
  await repository.write("shared.txt", "line 1\nline 2 by first\nline 3\n", first.path);
  await repository.write("shared.txt", "line 1\nline 2 by second\nline 3\n", second.path);
  await repository.write("second-only.txt", "second\n", second.path);
  await workspaces.save(first, { message: "first" });
  await workspaces.save(second, { message: "second" });
  return { workspaces, first, second };
}

/** What the repository looks like, to prove that nothing changed. */
async function snapshot(test: TestRepository, workspace: TaskWorkspace): Promise<string> {
  return [
    await test.git(["rev-parse", "HEAD", workspace.branch]),
    await test.git(["status", "--porcelain", "--untracked-files=all"]),
    await test.git(["status", "--porcelain", "--untracked-files=all", "--branch"], workspace.path),
    await readFile(join(test.repo, "shared.txt"), "utf8"),
    await readFile(join(workspace.path, "shared.txt"), "utf8"),
    await workspace.plan.read(),
  ].join("\n--\n");
}

describe("integrate", { timeout: 30_000 }, () => {
  it("integrates the first of two tasks editing the same lines and reports the second's conflict, changing nothing", async () => {
    const { workspaces, first, second } = await twoConflictingTasks();
    expect(await workspaces.integrate(first, { message: "Merge TASK-1" })).toMatchObject({
      kind: "integrated",
      filesChanged: 1,
    });
    const before = await snapshot(repository, second);
    const integration = await workspaces.integrate(second, { message: "Merge TASK-2" });
    expect(integration).toEqual({
      kind: "conflict",
      files: ["shared.txt"],
      keptBranch: second.branch,
    });
    expect(await snapshot(repository, second)).toBe(before);
    expect(await repository.git(["show", `${second.branch}:second-only.txt`])).toBe("second\n");
    expect(existsSync(join(repository.repo, ".git", "MERGE_HEAD"))).toBe(false);
  });

  it("completes a conflicted merge that the resolver fixes", async () => {
    const { workspaces, first, second } = await twoConflictingTasks();
    await workspaces.integrate(first, { message: "Merge TASK-1" });
    const checked = planText.replace("- [ ] TASK-2", "- [x] TASK-2");
    await second.plan.write(checked);
    const calls: unknown[] = [];
    const integration = await workspaces.integrate(second, {
      message: "Merge TASK-2",
      resolve: async (conflict) => {
        calls.push(conflict);
        const text = await readFile(join(conflict.path, "shared.txt"), "utf8");
        expect(text).toContain("<<<<<<<");
        await writeFile(join(conflict.path, "shared.txt"), "line 1\nline 2 by both\nline 3\n");
      },
    });
    expect(integration).toMatchObject({ kind: "integrated", resolved: true, filesChanged: 2 });
    expect(calls).toEqual([
      expect.objectContaining({ taskId: "TASK-2", path: second.path, files: ["shared.txt"] }),
    ]);
    expect(await readFile(join(repository.repo, "shared.txt"), "utf8")).toBe(
      "line 1\nline 2 by both\nline 3\n",
    );
    expect(await readFile(join(repository.repo, "second-only.txt"), "utf8")).toBe("second\n");
    expect(await repository.git(["log", "-1", "--format=%s %P"])).toMatch(
      /^Merge TASK-2 [0-9a-f]+ [0-9a-f]+\n$/,
    );
    expect(await repository.git(["status", "--porcelain"])).toBe("");
    // The task's worktree is back on its branch, its plan copy as the agent left it.
    expect(await repository.git(["symbolic-ref", "HEAD"], second.path)).toBe(
      `refs/heads/${second.branch}\n`,
    );
    expect(await second.plan.read()).toBe(checked);
    expect(await readFile(repository.planPath, "utf8")).toBe(planText);
  });

  it("rolls back a resolution that leaves conflict markers, the worktree back on its branch", async () => {
    const { workspaces, first, second } = await twoConflictingTasks();
    await workspaces.integrate(first, { message: "Merge TASK-1" });
    const before = await snapshot(repository, second);
    const integration = await workspaces.integrate(second, {
      message: "Merge TASK-2",
      resolve: async (conflict) => {
        await writeFile(join(conflict.path, "stray.txt"), "left by the resolver\n");
      },
    });
    expect(integration).toEqual({
      kind: "conflict",
      files: ["shared.txt"],
      keptBranch: second.branch,
    });
    expect(await snapshot(repository, second)).toBe(before);
    expect(existsSync(join(second.path, "stray.txt"))).toBe(false);
  });

  it("rolls back when the resolver throws or the signal aborts", async () => {
    const { workspaces, first, second } = await twoConflictingTasks();
    await workspaces.integrate(first, { message: "Merge TASK-1" });
    const before = await snapshot(repository, second);
    const thrown = await workspaces.integrate(second, {
      message: "Merge TASK-2",
      resolve: async () => {
        throw new Error("the merge agent failed");
      },
    });
    expect(thrown.kind).toBe("conflict");
    const controller = new AbortController();
    const aborted = await workspaces.integrate(second, {
      message: "Merge TASK-2",
      signal: controller.signal,
      resolve: async (conflict) => {
        await writeFile(join(conflict.path, "shared.txt"), "resolved\n");
        controller.abort();
      },
    });
    expect(aborted.kind).toBe("conflict");
    expect(await snapshot(repository, second)).toBe(before);
  });

  it("refuses when the main working tree has uncommitted changes in a file the merge writes, and keeps them", async () => {
    repository = await createTestRepository({ "a.txt": "a\n", "b.txt": "b\n" });
    const workspaces = gitWorkspaces({
      repo: repository.repo,
      root: repository.root,
      planPath: repository.planPath,
    });
    const workspace = await workspaces.open({ id: "TASK-1", title: "first" }, { planText });
    await repository.write("a.txt", "a by the task\n", workspace.path);
    await workspaces.save(workspace, { message: "save" });
    await repository.write("a.txt", "a by the user\n");
    await repository.write("plan.md", planText.replace("- [ ] TASK-2", "- [x] TASK-2"));
    const head = await repository.git(["rev-parse", "HEAD"]);
    const integration = await workspaces.integrate(workspace, { message: "Merge" });
    expect(integration).toMatchObject({ kind: "refused", keptBranch: workspace.branch });
    expect(integration.kind === "refused" && integration.message).toContain("a.txt");
    expect(await readFile(join(repository.repo, "a.txt"), "utf8")).toBe("a by the user\n");
    expect(await repository.git(["rev-parse", "HEAD"])).toBe(head);
    // A change in another file (and the dirty plan) does not stop it.
    await repository.git(["checkout", "--", "a.txt"]);
    await repository.write("b.txt", "b by the user\n");
    expect((await workspaces.integrate(workspace, { message: "Merge" })).kind).toBe("integrated");
    expect(await readFile(join(repository.repo, "b.txt"), "utf8")).toBe("b by the user\n");
    expect(await readFile(join(repository.repo, "a.txt"), "utf8")).toBe("a by the task\n");
  });

  it("refuses when an untracked file of the main working tree is in the way", async () => {
    repository = await createTestRepository();
    const workspaces = gitWorkspaces({
      repo: repository.repo,
      root: repository.root,
      planPath: repository.planPath,
    });
    const workspace = await workspaces.open({ id: "TASK-1", title: "first" }, { planText });
    await repository.write("new.txt", "task\n", workspace.path);
    await workspaces.save(workspace, { message: "save" });
    await repository.write("new.txt", "user\n");
    expect((await workspaces.integrate(workspace, { message: "Merge" })).kind).toBe("refused");
    expect(await readFile(join(repository.repo, "new.txt"), "utf8")).toBe("user\n");
  });

  it("merges onto a main line a user moved after the task was opened", async () => {
    repository = await createTestRepository({ "a.txt": "a\n" });
    const workspaces = gitWorkspaces({
      repo: repository.repo,
      root: repository.root,
      planPath: repository.planPath,
    });
    const workspace = await workspaces.open({ id: "TASK-1", title: "first" }, { planText });
    await repository.write("task.txt", "task\n", workspace.path);
    await workspaces.save(workspace, { message: "save" });
    await repository.write("user.txt", "user\n");
    await repository.git(["add", "user.txt"]);
    await repository.git(["commit", "-q", "-m", "user commit"]);
    const userHead = (await repository.git(["rev-parse", "HEAD"])).trim();
    const integration = await workspaces.integrate(workspace, { message: "Merge" });
    expect(integration).toMatchObject({ kind: "integrated", filesChanged: 1 });
    expect(await repository.git(["rev-parse", "HEAD^1"])).toBe(`${userHead}\n`);
    expect(await repository.git(["ls-tree", "--name-only", "HEAD"])).toBe(
      "a.txt\nplan.md\ntask.txt\nuser.txt\n",
    );
    expect(await repository.git(["status", "--porcelain"])).toBe("");
    expect(
      await repository.git([
        "rev-parse",
        "refs/loop/backup/" + workspace.branch.slice("loop/".length),
      ]),
    ).toBe(`${userHead}\n`);
  });

  it("recomputes the merge when the main line moves while a resolver works", async () => {
    const { workspaces, first, second } = await twoConflictingTasks();
    await workspaces.integrate(first, { message: "Merge TASK-1" });
    const integration = await workspaces.integrate(second, {
      message: "Merge TASK-2",
      resolve: async (conflict) => {
        await writeFile(join(conflict.path, "shared.txt"), "line 1\nline 2 by both\nline 3\n");
        await repository.write("user.txt", "user\n");
        await repository.git(["add", "user.txt"]);
        await repository.git(["commit", "-q", "-m", "a user commit meanwhile"]);
      },
    });
    expect(integration).toMatchObject({ kind: "integrated", resolved: true });
    expect(await repository.git(["log", "--first-parent", "--format=%s", "-3"])).toBe(
      "Merge TASK-2\na user commit meanwhile\nMerge TASK-1\n",
    );
    expect(await readFile(join(repository.repo, "shared.txt"), "utf8")).toBe(
      "line 1\nline 2 by both\nline 3\n",
    );
    expect(await readFile(join(repository.repo, "user.txt"), "utf8")).toBe("user\n");
    expect(await repository.git(["status", "--porcelain"])).toBe("");
  });

  it("integrates nothing when the task changed nothing", async () => {
    repository = await createTestRepository();
    const workspaces = gitWorkspaces({
      repo: repository.repo,
      root: repository.root,
      planPath: repository.planPath,
    });
    const workspace = await workspaces.open({ id: "TASK-1", title: "first" }, { planText });
    await workspace.plan.write(planText.replace("- [ ] TASK-1", "- [x] TASK-1"));
    await workspaces.save(workspace, { message: "save" });
    expect(await workspaces.integrate(workspace, { message: "Merge" })).toEqual({
      kind: "integrated",
      commit: null,
      filesChanged: 0,
      resolved: false,
    });
  });
});
