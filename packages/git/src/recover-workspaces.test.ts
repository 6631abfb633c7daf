import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Workspaces } from "@loop/core";
import { afterEach, describe, expect, it } from "vitest";
import { gitWorkspaces } from "./git-workspaces.js";
import { writeJournal } from "./integration-journal.js";
import { writeResolution } from "./resolution-record.js";
import { createTestRepository, type TestRepository } from "./test-repository.js";
import { readRecord, writeRecord } from "./workspace-record.js";

let repository: TestRepository;
const planText = "# Plan\n\n- [ ] TASK-1 first\n- [ ] TASK-2 second\n";

afterEach(async () => {
  await repository?.remove();
});

function workspacesOf(test: TestRepository): Workspaces {
  return gitWorkspaces({ repo: test.repo, root: test.root, planPath: test.planPath });
}

const stateDirectory = (test: TestRepository) => join(test.repo, ".git", "loop");

describe("recover", { timeout: 30_000 }, () => {
  it("rolls back an integration killed after git wrote part of the main working tree", async () => {
    repository = await createTestRepository({ "a.txt": "a\n", "gone.txt": "gone\n" });
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("a.txt", "a by the task\n", workspace.path);
    await repository.write("new/b.txt", "b\n", workspace.path);
    await rm(join(workspace.path, "gone.txt"));
    await workspaces.save(workspace, { message: "save" });
    const backup = (await repository.git(["rev-parse", "HEAD"])).trim();
    const integration = await workspaces.integrate(workspace, { message: "Merge" });
    const target = integration.kind === "integrated" ? (integration.commit ?? "") : "";
    // The state a kill leaves: files and index at the target, the ref still at the backup.
    await repository.git(["update-ref", "refs/heads/main", backup]);
    await writeFile(join(repository.repo, ".git", "index.lock"), "");
    await writeJournal(stateDirectory(repository), {
      version: 1,
      taskId: "TASK-1",
      branch: workspace.branch,
      backupRef: "refs/loop/backup/x",
      backup,
      target,
      startedAt: 0,
    });
    await repository.write("plan.md", planText.replace("- [ ] TASK-2", "- [x] TASK-2"));
    const report = await workspacesOf(repository).recover({ resume: [] });
    expect(report.integrations).toEqual([{ taskId: "TASK-1", outcome: "rolled_back" }]);
    expect(await repository.git(["status", "--porcelain", "--untracked-files=all"])).toBe(
      " M plan.md\n",
    );
    expect(await readFile(join(repository.repo, "a.txt"), "utf8")).toBe("a\n");
    expect(existsSync(join(repository.repo, "new/b.txt"))).toBe(false);
    expect(await readFile(join(repository.repo, "gone.txt"), "utf8")).toBe("gone\n");
    expect(existsSync(join(repository.repo, ".git", "index.lock"))).toBe(false);
    // The work is still on a branch.
    expect(report.kept).toEqual([
      { taskId: "TASK-1", branch: expect.stringMatching(/^loop\/kept\//) },
    ]);
  });

  it("completes an integration whose ref was moved before the kill", async () => {
    repository = await createTestRepository({ "a.txt": "a\n" });
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("a.txt", "a by the task\n", workspace.path);
    await workspaces.save(workspace, { message: "save" });
    const backup = (await repository.git(["rev-parse", "HEAD"])).trim();
    const integration = await workspaces.integrate(workspace, { message: "Merge" });
    const target = integration.kind === "integrated" ? (integration.commit ?? "") : "";
    await writeJournal(stateDirectory(repository), {
      version: 1,
      taskId: "TASK-1",
      branch: workspace.branch,
      backupRef: "refs/loop/backup/x",
      backup,
      target,
      startedAt: 0,
    });
    const report = await workspacesOf(repository).recover({ resume: [] });
    expect(report.integrations).toEqual([{ taskId: "TASK-1", outcome: "completed" }]);
    expect(report.kept).toEqual([]);
    expect(report.removed).toEqual(["TASK-1"]);
    expect(await repository.git(["rev-parse", "HEAD"])).toBe(`${target}\n`);
    expect(await repository.git(["branch", "--list", "loop/*"])).toBe("");
  });

  it("aborts a resolution killed in a task's worktree and puts it back on its branch", async () => {
    repository = await createTestRepository({ "s.txt": "1\n" });
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("s.txt", "task\n", workspace.path);
    await workspaces.save(workspace, { message: "save" });
    await repository.write("s.txt", "main\n");
    await repository.git(["commit", "-qam", "main"]);
    const checked = planText.replace("- [ ] TASK-1", "- [x] TASK-1");
    await writeResolution(stateDirectory(repository), workspace.branch.slice("loop/".length), {
      version: 1,
      taskId: "TASK-1",
      branch: workspace.branch,
      path: workspace.path,
      planText: checked,
    });
    await repository.git(["checkout", "-q", "-f", "--detach", "main"], workspace.path);
    await repository
      .git(["merge", "--no-ff", "--no-commit", workspace.branch], workspace.path)
      .catch(() => "");
    await repository.write("resolver-junk.txt", "x\n", workspace.path);
    const report = await workspacesOf(repository).recover({ resume: ["TASK-1"] });
    expect(report.reopened.map((reopened) => reopened.taskId)).toEqual(["TASK-1"]);
    expect(await repository.git(["symbolic-ref", "HEAD"], workspace.path)).toBe(
      `refs/heads/${workspace.branch}\n`,
    );
    expect(await readFile(join(workspace.path, "s.txt"), "utf8")).toBe("task\n");
    expect(existsSync(join(workspace.path, "resolver-junk.txt"))).toBe(false);
    expect(await report.reopened[0]?.plan.read()).toBe(checked);
    expect(await repository.git(["log", "--format=%s", workspace.branch])).toBe("save\ninitial\n");
  });

  it("saves and reopens the tasks to resume; saves, removes and keeps the others", async () => {
    repository = await createTestRepository();
    const workspaces = workspacesOf(repository);
    const resumed = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    const other = await workspaces.open({ id: "TASK-2", title: "t" }, { planText });
    const empty = await workspaces.open({ id: "TASK-3", title: "t" }, { planText });
    await repository.write("one.txt", "1\n", resumed.path);
    await repository.write("two.txt", "2\n", other.path);
    await empty.plan.write("the agent's plan edit only\n");
    const admin = (await readFile(join(resumed.path, ".git"), "utf8"))
      .replace("gitdir: ", "")
      .trim();
    await writeFile(join(admin, "index.lock"), "");
    await mkdir(join(repository.root, "stray-folder"));
    const report = await workspacesOf(repository).recover({ resume: ["TASK-1"] });
    expect(report.reopened.map((workspace) => workspace.path)).toEqual([resumed.path]);
    expect(report.kept).toEqual([
      { taskId: "TASK-2", branch: expect.stringMatching(/^loop\/kept\/TASK-2-/) },
    ]);
    expect(report.removed).toEqual(["TASK-3"]);
    expect(await repository.git(["log", "-1", "--format=%s", resumed.branch])).toBe(
      "loop: work left when the loop stopped\n",
    );
    expect(await repository.git(["show", `${report.kept[0]?.branch}:two.txt`])).toBe("2\n");
    expect(await readdir(repository.root)).toEqual([resumed.path.split("/").at(-1)]);
    expect(await repository.git(["branch", "--list", "--format=%(refname:short)"])).toMatch(
      /^loop\/TASK-1-[0-9a-f]+\nloop\/kept\/TASK-2-[0-9a-f]+\/1\nmain\n$/,
    );
    expect(await repository.git(["status", "--porcelain", "--untracked-files=all"])).toBe("");
  });

  it("removes a worktree whose git worktree add was killed, without saving its partial files", async () => {
    repository = await createTestRepository({ "keep.txt": "k\n" });
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    const admin = (await readFile(join(workspace.path, ".git"), "utf8"))
      .replace("gitdir: ", "")
      .trim();
    await writeFile(join(admin, "locked"), "initializing");
    await rm(join(workspace.path, "keep.txt"));
    // Killed before it wrote commondir: every `git worktree` command fails on such a folder.
    await rm(join(admin, "commondir"));
    const report = await workspacesOf(repository).recover({ resume: ["TASK-1"] });
    expect(report.reopened).toEqual([]);
    expect(report.removed).toEqual(["TASK-1"]);
    expect(existsSync(workspace.path)).toBe(false);
    expect(await repository.git(["branch", "--list", "loop/*"])).toBe("");
    expect(await repository.git(["worktree", "list"])).not.toContain(workspace.path);
  });

  it("finishes a close killed half-way through removing the worktree", async () => {
    repository = await createTestRepository({ "a.txt": "a\n", "b.txt": "b\n" });
    const workspaces = workspacesOf(repository);
    const workspace = await workspaces.open({ id: "TASK-1", title: "t" }, { planText });
    await repository.write("c.txt", "c\n", workspace.path);
    await workspaces.save(workspace, { message: "save" });
    const record = await readRecord(stateDirectory(repository), workspace.branch);
    await writeRecord(stateDirectory(repository), {
      ...(record as NonNullable<typeof record>),
      closing: "keep",
    });
    await rm(join(workspace.path, ".git"));
    await rm(join(workspace.path, "a.txt"));
    const report = await workspacesOf(repository).recover({ resume: ["TASK-1"] });
    expect(report.reopened).toEqual([]);
    expect(report.kept).toEqual([
      { taskId: "TASK-1", branch: expect.stringMatching(/^loop\/kept\//) },
    ]);
    expect(await repository.git(["ls-tree", "--name-only", report.kept[0]?.branch ?? ""])).toBe(
      "a.txt\nb.txt\nc.txt\nplan.md\n",
    );
    expect(existsSync(workspace.path)).toBe(false);
    expect(await repository.git(["fsck", "--no-dangling"])).toBe("");
  });
});
