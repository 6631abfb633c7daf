import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BLOCKED_ANSWER } from "../support/blocked-answer.js";
import { createTestProject, LOOP_BIN, type TestProject } from "./support.js";

// The ways back from a safety stop, end to end with the built binary: `loop reset` and
// `loop run --reset` after the circuit breaker opened, a reset refused while a loop runs, and
// the stops a person must answer (blocked, needs_input) saying what the agent said.

/** An agent that answers AGENT_ANSWER, changes nothing, and counts its calls in AGENT_CALLS. */
const ANSWERING_AGENT = `import { appendFileSync } from "node:fs";
for await (const _ of process.stdin);
appendFileSync(process.env.AGENT_CALLS, "call\\n");
console.log(process.env.AGENT_ANSWER ?? "I looked at the task.");
`;

/** An agent that never answers. */
const HANGING_AGENT = `console.log("started");
setInterval(() => {}, 1 << 30);
`;

const PLAN = `# Plan

## Tasks
- [ ] TASK-001 Write the parser
- [ ] TASK-002 Write the printer
`;

/** The breaker opens after 2 iterations without progress, before any task is given up. */
const CONFIG = `circuit_breaker:
  no_progress_loops: 2
tasks:
  max_attempts: 5
`;

let project: TestProject;
let outside: string;

beforeEach(async () => {
  project = await createTestProject();
  // The agents and their call counts live outside the project: a file they write there would
  // be progress.
  outside = await mkdtemp(join(tmpdir(), "loop-reset-agents-"));
  await writeFile(join(outside, "answering-agent.mjs"), ANSWERING_AGENT);
  await writeFile(join(outside, "hanging-agent.mjs"), HANGING_AGENT);
  await writeFile(join(project.dir, "plan.md"), PLAN);
  await mkdir(join(project.dir, ".claude/loop"), { recursive: true });
  await writeFile(join(project.dir, ".claude/loop/config.yaml"), CONFIG);
});

afterEach(async () => {
  await project.remove();
  await rm(outside, { recursive: true, force: true });
});

const callsFile = () => join(outside, "calls");
const calls = () => {
  try {
    return readFileSync(callsFile(), "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
};
const agentCommand = (name: string) => `"${process.execPath}" "${join(outside, name)}"`;
const runArgs = (...extra: string[]) => [
  "run",
  "--cmd",
  agentCommand("answering-agent.mjs"),
  ...extra,
];
const agentEnv = (answer?: string) => ({
  AGENT_CALLS: callsFile(),
  ...(answer === undefined ? {} : { AGENT_ANSWER: answer }),
});
const statePath = () => join(project.stateDir, "terminals", "test-terminal", "loop_state.json");
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const decisionLog = () =>
  readFileSync(join(project.dir, ".claude/loop/logs/decision.log"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

/** Runs the loop until the breaker opens, and checks it did. */
async function openTheBreaker(): Promise<void> {
  const run = await project.run(runArgs(), { env: agentEnv() });
  expect(run.code, run.stderr).toBe(3);
  expect(run.stderr).toContain("exit: circuit_open after 2 iterations");
  expect(calls()).toBe(2);
}

describe("loop reset", { timeout: 60_000 }, () => {
  it("after the breaker opened: says why and what to do, resets, and the next run calls the agent again", async () => {
    const first = await project.run(runArgs(), { env: agentEnv() });
    expect(first.code).toBe(3);
    // The safety exit says why and what to do, with the time in UTC.
    expect(first.stderr).toMatch(
      /the circuit breaker opened after 2 iterations in a row without progress on TASK-001; it half-opens at \d\d:\d\d:\d\d UTC \(circuit_breaker\.cooldown_minutes\), when `loop run` tries again, or run `loop reset` to close it now/,
    );
    // A command agent reports no cost: it is unknown, not $0.00.
    expect(first.stderr).toContain("· cost unknown");
    expect(first.stderr).not.toContain("$0.00");
    expect(first.stderr).toMatch(/iteration 1 ended: \d+s · cost unknown/);

    // While the breaker is open, a new run does not call the agent.
    const refused = await project.run(runArgs(), { env: agentEnv() });
    expect(refused.code).toBe(3);
    expect(calls()).toBe(2);
    const status = await project.run(["status"]);
    expect(status.stdout).toContain("exited: circuit_open");
    expect(status.stdout).toContain("run `loop reset` to close it now");
    expect(status.stdout).toMatch(/cost +unknown \(no agent run reported one\)/);
    expect(status.stdout).toMatch(/last update +\d\d:\d\d:\d\d UTC/);
    expect(status.stdout).toContain("Last decisions (UTC):");

    const plan = readFileSync(join(project.dir, "plan.md"), "utf8");
    const reset = await project.run(["reset"]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain(
      "Reset terminal test-terminal: circuit breaker OPEN → CLOSED; no given-up task, attempts of 1 task cleared; iterations 2 → 0; no agent session.",
    );
    expect(readFileSync(join(project.dir, "plan.md"), "utf8")).toBe(plan);
    expect(readJson(statePath())).toMatchObject({
      circuit_breaker: { state: "CLOSED", no_progress_streak: 0 },
      task_attempts: {},
      loop_metadata: { iterations: 0 },
      run: { exit_reason: "circuit_open" },
    });
    expect(decisionLog().at(-1)).toMatchObject({
      event: "state_reset",
      payload: {
        parts: ["breaker", "failed", "iterations", "session"],
        before: { circuit_breaker: "OPEN", iterations: 2 },
        after: { circuit_breaker: "CLOSED", iterations: 0 },
      },
    });
    const after = await project.run(["status"]);
    expect(after.stdout).toContain("the circuit breaker is CLOSED now (reset since)");
    expect(after.stdout).toMatch(/state_reset +circuit breaker OPEN → CLOSED/);

    const again = await project.run(runArgs(), { env: agentEnv() });
    expect(again.code).toBe(3);
    expect(calls()).toBe(4);
    expect(again.stderr).toContain("iteration 1: TASK-001 Write the parser");
  });

  it("resets only the parts named, and says when there is nothing to reset", async () => {
    const none = await project.run(["reset"]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("Nothing to reset: terminal test-terminal has no loop state");
    await openTheBreaker();
    const breaker = await project.run(["reset", "--breaker", "--json"]);
    expect(JSON.parse(breaker.stdout)).toMatchObject({
      terminalId: "test-terminal",
      parts: ["breaker"],
      before: { circuit_breaker: "OPEN", iterations: 2 },
      after: { circuit_breaker: "CLOSED", iterations: 2 },
    });
    const typo = await project.run(["reset", "--breakr"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("Did you mean --breaker?");
  });

  it("loop run --reset resets everything, then runs", async () => {
    await openTheBreaker();
    const run = await project.run(runArgs("--reset"), { env: agentEnv() });
    expect(run.stderr).toContain("reset: circuit breaker OPEN → CLOSED;");
    expect(run.stderr).toContain("iterations 2 → 0");
    expect(calls()).toBe(4);
    expect(run.stderr).toContain("exit: circuit_open after 2 iterations");
    const dry = await project.run(runArgs("--reset", "--dry-run"));
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain("--reset writes the state and --dry-run writes nothing");
  });

  it("is refused while a loop runs on the terminal, naming its pid", async () => {
    const child = spawn(
      process.execPath,
      [LOOP_BIN, "run", "--cmd", agentCommand("hanging-agent.mjs")],
      { cwd: project.dir, env: project.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
    try {
      await new Promise<void>((resolve) => {
        let stderr = "";
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
          if (/iteration 1:/.test(stderr)) resolve();
        });
      });
      const reset = await project.run(["reset"]);
      expect(reset.code).toBe(1);
      expect(reset.stderr).toContain(
        `loop reset: a loop is running on terminal "test-terminal" (pid ${child.pid} on `,
      );
      expect(reset.stderr).toContain("stop it first (Ctrl+C in its terminal), then reset");
      const withRun = await project.run(runArgs("--reset"), { env: agentEnv() });
      expect(withRun.code).toBe(1);
      expect(withRun.stderr).toContain(`pid ${child.pid}`);
    } finally {
      child.kill("SIGINT");
      await exited;
    }
    // Nothing was reset under the running loop.
    expect(decisionLog().some((event) => event.event === "state_reset")).toBe(false);
  });
});

describe("a loop that stops for a person", { timeout: 60_000 }, () => {
  it("blocked: the run and loop status show why and the agent's recommendation", async () => {
    const run = await project.run(runArgs(), { env: agentEnv(BLOCKED_ANSWER) });
    expect(run.code).toBe(3);
    const why =
      "the agent is blocked: I cannot proceed without the Stripe API key.; give it what it needs (or write the decision in the plan), then `loop run`";
    expect(run.stderr).toContain(`exit: blocked after 1 iteration`);
    expect(run.stderr).toContain(`  ${why}\n  recommendation: Add STRIPE_KEY to .env`);
    const status = await project.run(["status"]);
    expect(status.stdout).toContain("exited: blocked");
    expect(status.stdout).toContain(why);
    expect(status.stdout).toContain("recommendation: Add STRIPE_KEY to .env");
    expect(decisionLog().at(-1)).toMatchObject({
      event: "loop_exit",
      payload: {
        exit_reason: "blocked",
        agent_report: {
          reason: "I cannot proceed without the Stripe API key.",
          recommendation: "Add STRIPE_KEY to .env",
        },
      },
    });
  });

  it("needs_input: the run and loop status show the questions to answer in the plan", async () => {
    await writeFile(
      join(project.dir, ".claude/loop/config.yaml"),
      `${CONFIG}stop_when:\n  question_loops: 2\n`,
    );
    const answer =
      "Should I write the parser by hand or use a library? Which output format do you want?";
    const run = await project.run(runArgs(), { env: agentEnv(answer) });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("exit: needs_input after 2 iterations");
    expect(run.stderr).toContain(
      "  the agent only asked questions for 2 iterations in a row (stop_when.question_loops); answer them in the plan, then `loop run`",
    );
    expect(run.stderr).toContain("  asked: Should I write the parser by hand or use a library?");
    expect(run.stderr).toContain("  asked: Which output format do you want?");
    const status = await project.run(["status"]);
    expect(status.stdout).toContain("exited: needs_input");
    expect(status.stdout).toContain("asked: Which output format do you want?");
    expect(decisionLog().at(-1)).toMatchObject({
      event: "loop_exit",
      payload: {
        exit_reason: "needs_input",
        agent_report: {
          questions: [
            "Should I write the parser by hand or use a library?",
            "Which output format do you want?",
          ],
        },
      },
    });
  });
});
