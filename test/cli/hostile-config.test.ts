import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { initGitRepository } from "../support/git-repository.js";
import { createTestProject, type TestProject } from "./support.js";

// A repository someone cloned decides its own config and files. Nothing in them makes
// `loop run` write outside the project, and what it writes only its owner can read.

const PLAN = "# Plan\n\n## Tasks\n- [ ] TASK-001 Parser\n";
const IDLE_AGENT = 'for await (const _ of process.stdin);\nconsole.log("Reading.");\n';

let project: TestProject;
let victim: string;
beforeEach(async () => {
  project = await createTestProject();
  await initGitRepository(join(project.dir), { "plan.md": PLAN }, project.env);
  await writeFile(join(project.dir, "agent.mjs"), IDLE_AGENT);
  // The user's shell start-up file, in the test's HOME (the project's parent folder's sibling).
  victim = join(project.env.HOME ?? project.dir, "..", `bashrc-${Date.now()}`);
  await writeFile(victim, "# my shell\n");
});
afterEach(async () => {
  await project.remove();
});

const config = (yaml: string) =>
  mkdir(join(project.dir, ".claude", "loop"), { recursive: true }).then(() =>
    writeFile(join(project.dir, ".claude", "loop", "config.yaml"), yaml),
  );
const run = (...args: string[]) =>
  project.run(["run", ...args, "--cmd", `${process.execPath} agent.mjs`, "--max-iterations", "1"]);

describe("paths from a project's config stay inside the project", { timeout: 60_000 }, () => {
  it("refuses a log path that climbs out with .., or is absolute, and writes nothing there", async () => {
    for (const path of ["../../../bashrc", victim]) {
      await config(`logging:\n  decision_log: ${JSON.stringify(path)}\n`);
      const refused = await run();
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `.claude/loop/config.yaml: logging.decision_log: ${JSON.stringify(path)} is outside the project folder`,
      );
    }
    expect(readFileSync(victim, "utf8")).toBe("# my shell\n");
  });

  it("refuses a logs folder that is a symbolic link out of the project", async () => {
    await mkdir(join(project.dir, ".claude", "loop"), { recursive: true });
    await symlink(join(victim, ".."), join(project.dir, ".claude", "loop", "logs"));
    const refused = await run();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("logging.decision_log");
    expect(refused.stderr).toContain("is outside the project folder");
  });

  it("refuses a decision.log that is a symbolic link to a file outside", async () => {
    await mkdir(join(project.dir, ".claude", "loop", "logs"), { recursive: true });
    await symlink(victim, join(project.dir, ".claude", "loop", "logs", "decision.log"));
    expect((await run()).code).toBe(1);
    expect(readFileSync(victim, "utf8")).toBe("# my shell\n");
  });

  it("refuses the config's plan outside the project, and takes one named on the command line", async () => {
    const outside = join(project.dir, "..", `outside-plan-${Date.now()}.md`);
    await writeFile(outside, PLAN);
    await config(`plans:\n  default_plan: ${JSON.stringify(outside)}\n`);
    const refused = await run();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("plans.default_plan");
    expect(refused.stderr).toContain("`loop run <plan>`");
    const named = await run(outside);
    expect(named.stderr).toContain("iteration 1: TASK-001");
  });
});

describe("what the loop writes is its owner's only", { timeout: 60_000 }, () => {
  it("state, logs and status.json are 0600 in 0700 folders", async () => {
    await run();
    const mode = (path: string) => statSync(path).mode & 0o777;
    const terminal = join(project.stateDir, "terminals", "test-terminal");
    expect(mode(join(terminal, "loop_state.json"))).toBe(0o600);
    expect(mode(terminal)).toBe(0o700);
    const logs = join(project.dir, ".claude", "loop", "logs");
    expect(mode(join(logs, "decision.log"))).toBe(0o600);
    expect(mode(logs)).toBe(0o700);
    expect(mode(join(project.dir, ".claude", "loop", "status.json"))).toBe(0o600);
    expect(existsSync(join(logs, "iterations"))).toBe(true);
  });
});
