import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Workspaces } from "@loop/core";
import { afterEach, describe, expect, it } from "vitest";
import { gitWorkspaces } from "./git-workspaces.js";
import { createTestRepository, type TestRepository } from "./test-repository.js";

let repository: TestRepository;
const planText = "# Plan\n\n- [ ] TASK-1 first\n- [ ] TASK-2 second\n";

function workspacesOf(test: TestRepository): Workspaces {
  return gitWorkspaces({ repo: test.repo, root: test.root, planPath: test.planPath });
}

afterEach(async () => {
  await repository?.remove();
});

describe("gitWorkspaces", { timeout: 30_000 }, () => {
  it("counts each save's files and commits, with or without commits of the agent's own", async () => {
    repository = await createTestRepository({ "src/a.txt": "a\n" });
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "first" }, { planText });
    // Two files (one with a space in its name) and the plan's box: the plan is never counted.
    await repository.write("src/b c.txt", "b\n", workspace.path);
    await repository.write("src/a.txt", "changed\n", workspace.path);
    await workspace.plan.write(planText.replace("- [ ] TASK-1", "- [x] TASK-1"));
    expect(await workspaces.save(workspace, { message: "one" })).toEqual({
      filesChanged: 2,
      commits: 1,
    });
    // The agent commits a file itself and leaves another uncommitted: two commits since.
    await repository.write("src/c.txt", "c\n", workspace.path);
    await repository.git(["add", "src/c.txt"], workspace.path);
    await repository.git(["commit", "-q", "-m", "agent"], workspace.path);
    await repository.write("src/d.txt", "d\n", workspace.path);
    expect(await workspaces.save(workspace, { message: "two" })).toEqual({
      filesChanged: 2,
      commits: 2,
    });
    // Then one more file of its own: one commit, one file.
    await repository.write("src/e.txt", "e\n", workspace.path);
    expect(await workspaces.save(workspace, { message: "three" })).toEqual({
      filesChanged: 1,
      commits: 1,
    });
  });

  it("opens, saves, integrates and closes a task", async () => {
    repository = await createTestRepository({ "src/a.txt": "a\n" });
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "first" }, { planText });
    expect(workspace.path).toBe(
      join(await realRoot(repository), workspace.path.split("/").at(-1) ?? ""),
    );
    expect(workspace.branch).toMatch(/^loop\/TASK-1-[0-9a-f]{12}$/);
    expect(await workspace.plan.read()).toBe(planText);

    await repository.write("src/b.txt", "b\n", workspace.path);
    await workspace.plan.write(planText.replace("- [ ] TASK-1", "- [x] TASK-1"));
    expect(await workspaces.save(workspace, { message: "TASK-1: work" })).toEqual({
      filesChanged: 1,
      commits: 1,
    });
    expect(await workspaces.save(workspace, { message: "nothing" })).toEqual({
      filesChanged: 0,
      commits: 0,
    });

    const before = await repository.git(["rev-parse", "HEAD"]);
    const integration = await workspaces.integrate(workspace, { message: "Merge TASK-1" });
    expect(integration).toMatchObject({ kind: "integrated", filesChanged: 1, resolved: false });
    expect(await repository.git(["rev-parse", "HEAD"])).toBe(
      `${integration.kind === "integrated" ? integration.commit : ""}\n`,
    );
    // The main line's reflog has the integration as its one new entry (no gap): `HEAD@{1}` is
    // where it was before, for a user undoing the integration.
    const merged = integration.kind === "integrated" ? integration.commit : "";
    expect(await repository.git(["reflog", "-2", "--format=%gd %H", "HEAD"])).toBe(
      `HEAD@{0} ${merged}\nHEAD@{1} ${before}`,
    );
    expect(await readFile(join(repository.repo, "src/b.txt"), "utf8")).toBe("b\n");
    expect(await repository.git(["log", "-1", "--format=%s%n%an <%ae>"])).toBe(
      "Merge TASK-1\nloop <loop@localhost>\n",
    );
    expect(await repository.git(["status", "--porcelain"])).toBe("");

    expect(await workspaces.close(workspace, { keep: false })).toEqual({ keptBranch: null });
    expect(existsSync(workspace.path)).toBe(false);
    expect(await repository.git(["branch", "--list", "loop/*"])).toBe("");
    expect(await repository.git(["for-each-ref", "refs/loop/"])).toBe("");
  });

  it("never brings the plan copy to the main line, even when the agent commits its box", async () => {
    repository = await createTestRepository();
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "first" }, { planText });
    const checked = planText.replace("- [ ] TASK-1", "- [x] TASK-1");
    await workspace.plan.write(checked);
    await repository.write("done.txt", "done\n", workspace.path);
    await repository.git(["add", "-A"], workspace.path);
    await repository.git(["commit", "-q", "-m", "agent: TASK-1 done"], workspace.path);
    expect(await workspaces.save(workspace, { message: "save" })).toEqual({
      filesChanged: 1,
      commits: 2,
    });
    expect(await workspace.plan.read()).toBe(checked);
    const branchPlan = await repository.git(["show", `${workspace.branch}:plan.md`]);
    expect(branchPlan).toBe(planText);
    const integration = await workspaces.integrate(workspace, { message: "Merge" });
    expect(integration.kind).toBe("integrated");
    expect(await readFile(repository.planPath, "utf8")).toBe(planText);
    expect(await repository.git(["diff", "--name-only", "HEAD~1", "HEAD"])).toBe("done.txt\n");
  });

  it("leaves an untracked plan untracked on the branch", async () => {
    repository = await createTestRepository({ "a.txt": "a\n" }, { trackPlan: false });
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "T", title: "t" }, { planText });
    await repository.write("b.txt", "b\n", workspace.path);
    await workspaces.save(workspace, { message: "save" });
    expect(await repository.git(["ls-tree", "-r", "--name-only", workspace.branch])).toBe(
      "a.txt\nb.txt\n",
    );
    expect(await workspace.plan.read()).toBe(planText);
  });

  it("keeps worktrees out of the main working tree's status", async () => {
    repository = await createTestRepository();
    const workspaces = workspacesOf(repository);
    await workspaces.open({ id: "TASK-1", title: "first" }, { planText });
    expect(await repository.git(["status", "--porcelain", "--untracked-files=all"])).toBe("");
    const exclude = await readFile(join(repository.repo, ".git/info/exclude"), "utf8");
    expect(exclude).toContain("/.loop/worktrees/\n");
  });
});

async function realRoot(test: TestRepository): Promise<string> {
  const { realpath } = await import("node:fs/promises");
  return realpath(test.root);
}
