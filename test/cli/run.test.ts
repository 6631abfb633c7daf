import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestProject, FAKE_CLAUDE, LOOP_BIN, type TestProject } from "./support.js";

// `loop run` end to end: the built binary, the file adapters and a fake `claude`.

const QUICKSTART_PLAN = fileURLToPath(
  new URL("../../examples/quickstart/plan.md", import.meta.url),
);

let project: TestProject;

beforeEach(async () => {
  project = await createTestProject();
  await copyFile(QUICKSTART_PLAN, join(project.dir, "plan.md"));
});

afterEach(async () => {
  await project.remove();
});

const fakeClaude = (scenario: string) => ({ FAKE_CLAUDE_SCENARIO: scenario });
const statePath = () => join(project.stateDir, "terminals", "test-terminal", "loop_state.json");
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

/**
 * Runs `loop run` with the fake claude's `scenario`, presses Ctrl+C (SIGINT) once its stderr
 * matches `pattern`, and waits for it to exit.
 */
async function interruptWhen(
  scenario: string,
  pattern: RegExp,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [LOOP_BIN, "run", "--bin", FAKE_CLAUDE], {
    cwd: project.dir,
    env: { ...project.env, ...fakeClaude(scenario) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const seen = new Promise<void>((resolve) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (pattern.test(stderr)) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => resolve(code)),
  );
  await seen;
  child.kill("SIGINT");
  return { code: await exited, stderr };
}

describe("loop run", { timeout: 60_000 }, () => {
  it("init, then validate, then run with Claude Code to completion, in a new project", async () => {
    const fresh = await createTestProject();
    try {
      expect((await fresh.run(["init"])).code).toBe(0);
      const validate = await fresh.run(["validate"]);
      expect(validate.code, validate.stdout + validate.stderr).toBe(0);
      const run = await fresh.run(["run", "--bin", FAKE_CLAUDE], { env: fakeClaude("loop") });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain("exit: all_tasks_complete");
      expect(readFileSync(join(fresh.dir, "plan.md"), "utf8")).not.toMatch(/- \[ \] TASK/);
    } finally {
      await fresh.remove();
    }
  });

  it("runs the plan to completion with Claude Code and leaves state, logs and status.json", async () => {
    const run = await project.run(["run", "--bin", FAKE_CLAUDE], { env: fakeClaude("loop") });
    expect(run.stderr, run.stderr).toContain("✓ TASK-001 complete");
    expect(run.stderr).toContain("exit: all_tasks_complete after 7 iterations");
    expect(run.code).toBe(0);
    const plan = readFileSync(join(project.dir, "plan.md"), "utf8");
    expect(plan).not.toMatch(/- \[ \] TASK/);
    const state = readJson(statePath());
    expect(state).toMatchObject({
      completed_tasks: ["TASK-001", "TASK-002", "TASK-003", "TASK-004", "TASK-005", "TASK-006"],
      run: { status: "exited", exit_reason: "all_tasks_complete" },
      loop_metadata: { plan_path: join(project.dir, "plan.md"), iterations: 7 },
    });
    expect(readJson(join(project.dir, ".claude/loop/status.json"))).toMatchObject({
      status: "completed",
      exit_reason: "all_tasks_complete",
      loop_count: 7,
      tasks_done: 6,
      tasks_total: 6,
      terminal_id: "test-terminal",
    });
    const log = readFileSync(join(project.dir, ".claude/loop/logs/decision.log"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(log.at(-1)).toMatchObject({
      event: "loop_exit",
      payload: { exit_reason: "all_tasks_complete" },
    });
    // Verification ran at the end and went to verifier.log, as the seed's loop writes it.
    const verifier = readFileSync(join(project.dir, ".claude/loop/logs/verifier.log"), "utf8");
    expect(JSON.parse(verifier.trim().split("\n").at(-1) ?? "")).toMatchObject({
      terminal_id: "test-terminal",
      passed: true,
    });
  });

  it("--dry-run shows the next task, the prompt and the exact command, and writes nothing", async () => {
    const argvFile = join(project.dir, "argv.json");
    const dry = await project.run([
      "run",
      "--bin",
      FAKE_CLAUDE,
      "--dry-run",
      "--",
      "--model",
      "opus",
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("Dry run: nothing is run or written.");
    expect(dry.stdout).toContain(
      "next:      TASK-001 Design the greeting module's public interface (attempt 1 of 3)",
    );
    expect(dry.stdout).toContain(
      `command:   ${FAKE_CLAUDE} -p <prompt> --output-format stream-json --verbose --model opus`,
    );
    expect(dry.stdout).toContain("Your task is `TASK-001`");
    expect(existsSync(project.stateDir)).toBe(false);
    expect(existsSync(join(project.dir, ".claude"))).toBe(false);

    const json = await project.run([
      "run",
      "--bin",
      FAKE_CLAUDE,
      "--dry-run",
      "--json",
      "--",
      "--model",
      "opus",
    ]);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({
      task: { id: "TASK-001" },
      iteration: 1,
      attempt: 1,
      exit: null,
    });
    // The argv the dry run shows is the argv the agent then gets.
    await project.run(
      ["run", "--bin", FAKE_CLAUDE, "--max-iterations", "1", "--", "--model", "opus"],
      {
        env: { ...fakeClaude("loop"), FAKE_CLAUDE_ARGV_FILE: argvFile },
      },
    );
    expect(readJson(argvFile)).toEqual(report.command.args);
    expect(report.command.args[1]).toBe(report.prompt);
  });

  it("--json prints every event as a JSON line and the result last", async () => {
    const run = await project.run(["run", "--bin", FAKE_CLAUDE, "--json"], {
      env: fakeClaude("loop"),
    });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const types = new Set(events.map((event) => event.type));
    for (const type of ["iteration-start", "iteration-end", "task-complete", "decision", "exit"]) {
      expect(types.has(type), type).toBe(true);
    }
    expect(events.at(-1)).toMatchObject({
      type: "result",
      exitReason: "all_tasks_complete",
      complete: true,
      exitCode: 0,
    });
    expect(run.stderr).toBe("");
  });

  it("exits 3 when a limit stops the loop before the plan is complete", async () => {
    const run = await project.run(["run", "--bin", FAKE_CLAUDE, "--max-iterations", "2"], {
      env: fakeClaude("loop"),
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("exit: max_iterations after 2 iterations");
    expect(readJson(join(project.dir, ".claude/loop/status.json"))).toMatchObject({
      status: "halted",
      exit_reason: "max_iterations",
    });
  });

  it("exits 1 and says where for an invalid plan or config", async () => {
    await writeFile(
      join(project.dir, "bad.md"),
      "# Plan\n\n- [ ] TASK-001 One\n- [ ] TASK-001 Two\n",
    );
    const plan = await project.run(["run", "bad.md", "--bin", FAKE_CLAUDE]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/bad\.md:4:\d+/);
    await writeFile(join(project.dir, "loop.yaml"), "limits:\n  max_iteratons: 3\n");
    const config = await project.run(["run", "--config", "loop.yaml", "--bin", FAKE_CLAUDE]);
    expect(config.code).toBe(1);
    expect(config.stderr).toContain("loop.yaml:2:3");
    expect(config.stderr).toContain("max_iterations");
  });

  it("a prompt template's errors name its file: PROMPT.md:1:9", async () => {
    await writeFile(join(project.dir, "PROMPT.md"), "Work on {{task_idd}} now\n");
    for (const extra of [["--dry-run"], []]) {
      const run = await project.run(["run", "-p", "PROMPT.md", "--bin", FAKE_CLAUDE, ...extra], {
        env: fakeClaude("loop"),
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        "PROMPT.md:1:9 unknown placeholder {{task_idd}}: did you mean {{task_id}}?",
      );
    }
  });

  it("without a plan, exits 1 saying how to get one, and writes nothing", async () => {
    await rm(join(project.dir, "plan.md"));
    const run = await project.run(["run", "--bin", FAKE_CLAUDE], { env: fakeClaude("loop") });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("plan.md not found: write a plan (`loop init` scaffolds one)");
    expect(existsSync(join(project.dir, ".claude"))).toBe(false);
    expect(existsSync(project.stateDir)).toBe(false);
    await mkdir(join(project.dir, "plans"));
    const folder = await project.run(["run", "plans", "--bin", FAKE_CLAUDE], {
      env: fakeClaude("loop"),
    });
    expect(folder.stderr).toContain("plans is a folder, not a plan file");
    expect(existsSync(join(project.dir, ".claude"))).toBe(false);
  });

  it("exits 1 at once, before any iteration, when the agent's executable is missing", async () => {
    const run = await project.run(["run", "--bin", join(project.dir, "no-such-claude")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("no-such-claude` is not found (or not executable)");
    expect(existsSync(project.stateDir)).toBe(false);
    const onPath = await project.run(["run", "--executor", "codex"], {
      env: { PATH: project.dir },
    });
    expect(onPath.code).toBe(1);
    expect(onPath.stderr).toContain("`codex` is not found on PATH");
    expect(onPath.stderr).toContain("npm install -g @openai/codex");
    const amp = await project.run(["run", "--executor", "amp"], { env: { PATH: project.dir } });
    expect(amp.stderr).toContain("npm install -g @ampcode/cli (formerly @sourcegraph/amp)");
  });

  it("exits 2 for a wrong command line, suggesting the option meant", async () => {
    const typo = await project.run(["run", "--max-iteration", "3"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("Did you mean --max-iterations?");
    const executor = await project.run(["run", "--executor", "copilot"]);
    expect(executor.code).toBe(2);
    expect(executor.stderr).toContain("claude, codex, gemini, aider, amp, command");
    const missing = await project.run(["run", "--executor", "command"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--cmd");
  });

  it("--cmd alone means --executor command; with another executor it is refused", async () => {
    await project.run(["init"]);
    const implied = await project.run(["run", "--cmd", "my-agent --yes", "--dry-run", "--json"]);
    expect(implied.code, implied.stderr).toBe(0);
    expect(JSON.parse(implied.stdout).command).toMatchObject({
      command: "my-agent",
      args: ["--yes"],
    });
    const mixed = await project.run(["run", "--executor", "codex", "--cmd", "my-agent"]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--cmd and --prompt-via go with --executor command");
  });

  it("waits out a usage limit with a readable reset time, never the raw `|<epoch>` suffix", async () => {
    const { stderr } = await interruptWhen("usage-limit", /waiting for the usage limit until .*\n/);
    const line = /waiting for the usage limit until .*/.exec(stderr)?.[0] ?? "";
    // The fake's reset, 1900000000 s (2030-03-17), is years away: the wait is capped at 8 days,
    // shown as a date and time in UTC.
    expect(line).toMatch(/until \d{4}-\d\d-\d\d \d\d:\d\d UTC \(8d 00h\)/);
    expect(line).toContain("Claude AI usage limit reached");
    expect(line).not.toMatch(/\|\d+/);
  });

  it("stops cleanly on Ctrl+C: the agent stopped, state saved, exit code 130", async () => {
    const { code, stderr } = await interruptWhen("hang", /iteration 1:/);
    expect(code).toBe(130);
    expect(stderr).toContain("stopping: the agent is stopped and state saved");
    expect(readJson(statePath())).toMatchObject({
      run: { status: "exited", exit_reason: "aborted" },
      // The aborted iteration does not count toward limits.max_iterations: it runs again.
      loop_metadata: { iterations: 0 },
      failed_tasks: [],
    });
    expect(readJson(join(project.dir, ".claude/loop/status.json"))).toMatchObject({
      status: "stopped",
      exit_reason: "aborted",
    });
  });
});

describe("loop status", { timeout: 60_000 }, () => {
  it("--json matches the state file, with progress and the last decisions", async () => {
    await project.run(["run", "--bin", FAKE_CLAUDE], { env: fakeClaude("loop") });
    const status = await project.run(["status", "--json", "--events", "3"]);
    expect(status.code).toBe(0);
    const report = JSON.parse(status.stdout);
    expect(report.terminalId).toBe("test-terminal");
    expect(report.state).toEqual(readJson(statePath()));
    expect(report.progress).toMatchObject({ done: 6, total: 6 });
    expect(report.events.map((event: { event: string }) => event.event)).toEqual([
      "iteration_start",
      "iteration_end",
      "loop_exit",
    ]);
    expect(report.problems).toEqual([]);
  });

  it("shows the loop another terminal of the project runs, found through status.json", async () => {
    await project.run(["run", "--bin", FAKE_CLAUDE, "--max-iterations", "2"], {
      env: fakeClaude("loop"),
    });
    const status = await project.run(["status"], { env: { LOOP_TERMINAL_ID: undefined } });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("loop status — terminal test-terminal");
    expect(status.stdout).toContain("exited: max_iterations");
    expect(status.stdout).toContain("2/6 tasks done");
    expect(status.stdout).toMatch(/iteration_end +#2/);
  });

  it("says so when there is no loop state", async () => {
    const status = await project.run(["status"]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("No loop state for this terminal");
  });
});
