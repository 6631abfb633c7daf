import { spawn } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestProject, FAKE_CLAUDE, LOOP_BIN, type TestProject } from "./support.js";

// `loop run` keeps each iteration's raw output in a log of its own; `loop logs` shows them. The
// agent is a command that prints known text (stdout and stderr), or the fake `claude`.
// Build first: `pnpm --filter @loop/cli build`.

const QUICKSTART_PLAN = fileURLToPath(
  new URL("../../examples/quickstart/plan.md", import.meta.url),
);
const PLAN_AGENT = fileURLToPath(
  new URL("../../examples/cli-tour/plan-agent.mjs", import.meta.url),
);

/** An agent that does the prompt's task, answers on stdout and leaves a note on stderr. */
const AGENT_SOURCE = `import { workOnPlan } from ${JSON.stringify(PLAN_AGENT)};
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const answer = workOnPlan(Buffer.concat(chunks).toString("utf8"));
process.stdout.write("agent: starting\\n" + answer + "\\n");
process.stderr.write("agent: a note on stderr\\n");
`;

const LOGS_FOLDER = ".claude/loop/logs/iterations/test-terminal";

let project: TestProject;

beforeEach(async () => {
  project = await createTestProject();
  await copyFile(QUICKSTART_PLAN, join(project.dir, "plan.md"));
  await writeFile(join(project.dir, "agent.mjs"), AGENT_SOURCE);
});

afterEach(async () => {
  await project.remove();
});

/** Runs `loop run` with the command agent for `iterations` more iterations. */
async function runIterations(iterations: number) {
  const state = join(project.stateDir, "terminals", "test-terminal", "loop_state.json");
  const done = await readFile(state, "utf8").then(
    (text) => JSON.parse(text).loop_metadata.iterations as number,
    () => 0,
  );
  const run = await project.run([
    "run",
    "--cmd",
    `${process.execPath} agent.mjs`,
    "--max-iterations",
    String(done + iterations),
  ]);
  const counted = `${iterations} iteration${iterations === 1 ? "" : "s"}`;
  expect(run.stderr).toContain(`exit: max_iterations after ${counted}`);
  return run;
}

const logNames = async () => (await readdir(join(project.dir, LOGS_FOLDER))).sort();

describe("loop logs", { timeout: 60_000 }, () => {
  it("shows the newest iteration's log: a header, then the agent's stdout and stderr", async () => {
    await runIterations(2);
    const names = await logNames();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^\d{8}T\d{6}Z-000001-TASK-001\.log$/);
    expect(names[1]).toMatch(/^\d{8}T\d{6}Z-000002-TASK-002\.log$/);

    const logs = await project.run(["logs"]);
    expect(logs.code, logs.stderr).toBe(0);
    const [header, output] = logs.stdout.split("--- output ---\n");
    expect(header).toMatch(/^# loop iteration log v1\niteration: 2\nkind: task\ntask: TASK-002\n/);
    expect(header).toContain("\nterminal: test-terminal\n");
    expect(header).toMatch(/\nstarted_at: \d{4}-\d\d-\d\dT[\d:.]+Z\nended_at: /);
    expect(header).toContain("\nsuccess: true\ndecision: exit max_iterations\n");
    expect(header).toContain("\ntasks_completed: TASK-002\nerror: none\noutput: raw\n");
    expect(output).toMatch(
      /^agent: starting\nImplemented TASK-002\.\n\n---RALPH_STATUS---\n[\s\S]*---END_RALPH_STATUS---\n--- stderr ---\nagent: a note on stderr\n$/,
    );
    // The file holds what `loop logs` printed.
    expect(await readFile(join(project.dir, LOGS_FOLDER, names[1] ?? ""), "utf8")).toBe(
      logs.stdout,
    );
  });

  it("--iteration, --task and --list pick and list the logs; a missing one names those kept", async () => {
    await runIterations(3);
    const first = await project.run(["logs", "--iteration", "1"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("\ntask: TASK-001\n");
    expect(first.stdout).toContain("Implemented TASK-001.");

    const task = await project.run(["logs", "-t", "task-002"]);
    expect(task.code, task.stderr).toBe(0);
    expect(task.stdout).toContain("\niteration: 2\n");

    const list = await project.run(["logs", "--list"]);
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`Iteration logs of terminal test-terminal (${LOGS_FOLDER}):`);
    expect(lines[1]).toMatch(
      /^ {2}iteration {2}task {6}started {3}took {2}result {2}cost {2}file$/,
    );
    expect(lines.slice(2).map((line) => line.trim().split(/\s+/))).toEqual(
      (await logNames()).map((name, index) => [
        String(index + 1),
        `TASK-00${index + 1}`,
        expect.stringMatching(/^\d\d:\d\d:\d\d$/),
        expect.stringMatching(/^\d+s$/),
        "ok",
        name,
      ]),
    );
    const taskList = await project.run(["logs", "--list", "--task", "TASK-003"]);
    expect(taskList.stdout.trimEnd().split("\n")).toHaveLength(3);

    const missing = await project.run(["logs", "--iteration", "9"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      "loop logs: no log of iteration 9 for terminal test-terminal; iterations kept: 1-3 (see `loop logs --list`).\n",
    );
    const unknown = await project.run(["logs", "--task", "TASK-099"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("tasks with logs: TASK-001, TASK-002, TASK-003");
  });

  it("says when there is no log yet and how to get one; bad options are usage errors", async () => {
    const none = await project.run(["logs"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      `loop logs: no iteration logs yet for terminal test-terminal (in ${LOGS_FOLDER}): \`loop run\` writes one per iteration.\n`,
    );
    const mixed = await project.run(["logs", "-f", "--list"]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--follow shows new logs as they come");
    const count = await project.run(["logs", "--iteration", "two"]);
    expect(count.code).toBe(2);
    expect(count.stderr).toContain("--iteration must be a number");
  });

  it("keeps the newest logging.iteration_logs_keep logs of the terminal", async () => {
    await mkdir(join(project.dir, ".claude/loop"), { recursive: true });
    await writeFile(
      join(project.dir, ".claude/loop/config.yaml"),
      "logging:\n  iteration_logs_keep: 2\n",
    );
    await runIterations(4);
    const names = await logNames();
    expect(names.map((name) => name.slice(17))).toEqual([
      "000003-TASK-003.log",
      "000004-TASK-004.log",
    ]);
  });

  it("a log that cannot be written is a warning; the loop runs on", async () => {
    await mkdir(join(project.dir, ".claude/loop/logs"), { recursive: true });
    await writeFile(join(project.dir, ".claude/loop/logs/iterations"), "not a folder");
    const run = await runIterations(2);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/loop run: the iteration log is not written: .*ENOTDIR/);
    expect(run.stderr).toContain("✓ TASK-002 complete");
  });

  it("keeps Claude Code's stream-json as it printed it", async () => {
    const run = await project.run(["run", "--bin", FAKE_CLAUDE, "--max-iterations", "1"], {
      env: { FAKE_CLAUDE_SCENARIO: "loop" },
    });
    expect(run.code, run.stderr).toBe(3);
    const logs = await project.run(["logs"]);
    expect(logs.stdout).toContain("\ncost_usd: 0.01\n");
    const events = (logs.stdout.split("--- output ---\n")[1] ?? "")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.map((event) => event.type)).toEqual(["system", "assistant", "result"]);
    expect(events[2]).toMatchObject({ result: expect.stringContaining("Implemented TASK-001.") });
  });

  it("-f prints the newest log, then each new one as loop run writes it, until Ctrl+C", async () => {
    await runIterations(1);
    const child = spawn(process.execPath, [LOOP_BIN, "logs", "-f"], {
      cwd: project.dir,
      env: project.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let seen: (() => void) | null = null;
    const until = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        seen = () => pattern.test(stdout) && resolve();
        seen();
      });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      seen?.();
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      await until(/Implemented TASK-001\./);
      await runIterations(2);
      await until(/Implemented TASK-003\.[\s\S]*--- stderr ---\nagent: a note on stderr\n$/);
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(0);
    expect([...stdout.matchAll(/^iteration: (\d+)$/gm)].map((match) => match[1])).toEqual([
      "1",
      "2",
      "3",
    ]);
  });
});
