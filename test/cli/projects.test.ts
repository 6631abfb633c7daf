import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BLOCKED_ANSWER } from "../support/blocked-answer.js";
import { createGitProject } from "../support/git-repository.js";
import { agentStarted, killLoopAndAgent, SLOW_AGENT } from "./slow-agent.js";
import { type CliRun, DEMO_AGENT, LOOP_BIN, runCliProcess, TWO_TASK_PLAN } from "./support.js";
import { shellQuote, TmuxPane } from "./tmux-pane.js";

// Real projects, run the way a user runs them: real git repositories, the default state
// location (no LOOP_STATE_DIR, no LOOP_TERMINAL_ID), and two projects on one machine, one HOME.

/** An agent that reads its prompt and answers without changing anything. */
const IDLE_AGENT = `for await (const _ of process.stdin);
console.log("I looked at the task and will get to it.");
`;

/** An agent that is blocked: it says why, and what it recommends. */
const BLOCKED_AGENT = `for await (const _ of process.stdin);
console.log(${JSON.stringify(BLOCKED_ANSWER)});
`;

/** An agent that adds a line to notes.md every run, and changes nothing else. */
const NOTE_AGENT = `import { appendFileSync } from "node:fs";
for await (const _ of process.stdin);
appendFileSync("notes.md", "one more note\\n");
console.log("Added a note.");
`;

let machine: string;
let home: string;
let env: Record<string, string>;

beforeEach(async () => {
  machine = await mkdtemp(join(tmpdir(), "loop-projects-"));
  home = join(machine, "home");
  await mkdir(home);
  await writeFile(join(machine, "idle-agent.mjs"), IDLE_AGENT);
  await writeFile(join(machine, "note-agent.mjs"), NOTE_AGENT);
  await writeFile(join(machine, "slow-agent.mjs"), SLOW_AGENT);
  await writeFile(join(machine, "blocked-agent.mjs"), BLOCKED_AGENT);
  // A plain terminal: no multiplexer or terminal-program variables, no loop variables.
  env = { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" };
});

afterEach(async () => {
  await rm(machine, { recursive: true, force: true });
});

/** A git repository with `plan.md` committed, as a user's project is. */
function gitProject(name: string, files: Record<string, string> = {}): Promise<string> {
  return createGitProject(join(machine, name), { "plan.md": TWO_TASK_PLAN, ...files }, env);
}

const loop = (dir: string, args: readonly string[]): Promise<CliRun> =>
  runCliProcess(args, dir, env);
const agent = (name: string) => ["--cmd", `node ${join(machine, name)}`];
const stateFile = (dir: string) =>
  join(dir, ".claude", "loop", "state", "terminals", "default", "loop_state.json");
const readState = (dir: string) => JSON.parse(readFileSync(stateFile(dir), "utf8"));
const gitStatus = (dir: string) =>
  execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
    cwd: dir,
    encoding: "utf8",
  });

describe("state per project", { timeout: 120_000 }, () => {
  it("two projects in one terminal never share state", async () => {
    const stuck = await gitProject("stuck");
    const fresh = await gitProject("fresh");
    const first = await loop(stuck, ["run", ...agent("idle-agent.mjs")]);
    expect(first.stderr).toContain("exit: circuit_open");
    expect(readState(stuck).circuit_breaker.state).toBe("OPEN");

    // The second project starts from nothing: its own plan, iteration 1, a closed breaker.
    const status = await loop(fresh, ["status"]);
    expect(status.stdout).not.toContain(join(stuck, "plan.md"));
    const second = await loop(fresh, ["run", "--cmd", `node ${DEMO_AGENT}`]);
    expect(second.stderr).toContain("iteration 1: TASK-001");
    expect(second.stderr).toContain("exit: all_tasks_complete");
    expect(second.code).toBe(0);
    expect(readState(fresh).loop_metadata.plan_path).toBe(join(fresh, "plan.md"));
    // Nothing is kept in the home folder any more.
    expect(existsSync(join(home, ".claude", "state"))).toBe(false);
    // And the first project's state is still its own.
    expect(readState(stuck).circuit_breaker.state).toBe("OPEN");
  });

  it("moves a project's state from ~/.claude/state and leaves another project's there", async () => {
    const mine = await gitProject("mine");
    const other = await gitProject("other");
    // An earlier version ran `mine` in this terminal: its state is in the seed's home layout.
    await loop(mine, ["run", ...agent("idle-agent.mjs"), "--max-iterations", "2"]);
    const homeFolder = join(home, ".claude", "state", "terminals", "default");
    await mkdir(join(home, ".claude", "state", "terminals"), { recursive: true });
    await cp(join(mine, ".claude", "loop", "state", "terminals", "default"), homeFolder, {
      recursive: true,
    });
    await rm(join(mine, ".claude", "loop", "state"), { recursive: true });

    // Another project does not take it …
    const elsewhere = await loop(other, ["status"]);
    expect(elsewhere.stderr).not.toContain("moved");
    expect(existsSync(join(homeFolder, "loop_state.json"))).toBe(true);
    // … its own project does, and resumes where it was.
    const resumed = await loop(mine, ["run", ...agent("note-agent.mjs"), "--max-iterations", "3"]);
    expect(resumed.stderr).toContain(`moved this project's state from ${homeFolder}/`);
    expect(resumed.stderr).toContain("iteration 3: TASK-001");
    expect(resumed.stderr).toContain("exit: max_iterations");
    expect(existsSync(homeFolder)).toBe(false);
    expect(readState(mine).loop_metadata.iterations).toBe(3);
  });

  it("refuses another project's state in a shared state root", async () => {
    const first = await gitProject("first");
    const second = await gitProject("second");
    const shared = { ...env, LOOP_STATE_DIR: join(home, ".claude", "state") };
    await runCliProcess(["run", ...agent("idle-agent.mjs")], first, shared);
    const refused = await runCliProcess(["run", "--cmd", `node ${DEMO_AGENT}`], second, shared);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `the state of terminal "default" in ${join(home, ".claude", "state")} belongs to another project (its plan is ${join(first, "plan.md")})`,
    );
    expect(readFileSync(join(second, "plan.md"), "utf8")).toBe(TWO_TASK_PLAN);
  });

  it("loop init keeps what the loop writes out of git", async () => {
    const dir = await gitProject("app", { ".gitignore": "node_modules/\n" });
    const init = await loop(dir, ["init"]);
    expect(init.stdout).toMatch(/updated\s+\.gitignore/);
    execFileSync("git", ["add", "-A"], { cwd: dir });
    execFileSync(
      "git",
      ["-c", "user.name=t", "-c", "user.email=t@example.test", "commit", "-qm", "loop"],
      { cwd: dir },
    );
    await loop(dir, ["run", ...agent("idle-agent.mjs"), "--max-iterations", "2"]);
    // State, logs and status.json exist, and git sees none of them.
    expect(existsSync(stateFile(dir))).toBe(true);
    expect(existsSync(join(dir, ".claude", "loop", "status.json"))).toBe(true);
    expect(gitStatus(dir)).toBe("");
    const ignore = await readFile(join(dir, ".gitignore"), "utf8");
    expect(ignore.startsWith("node_modules/\n")).toBe(true);
    // Running init again adds nothing twice.
    expect((await loop(dir, ["init"])).stdout).toMatch(/unchanged\s+\.gitignore/);
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toBe(ignore);
  });
});

describe("a new user's way back from a stop", { timeout: 120_000 }, () => {
  it("safety stop, what to do, the agent's words, loop logs, loop reset, then a run to the end", async () => {
    const dir = await gitProject("app");
    await loop(dir, ["init"]);
    // A stuck agent: the circuit opens, and the last lines say why and what to do.
    const stuck = await loop(dir, ["run", ...agent("idle-agent.mjs")]);
    expect(stuck.code).toBe(3);
    expect(stuck.stderr).toMatch(
      /the circuit breaker opened after 5 iterations in a row without progress on TASK-002; it half-opens at \d\d:\d\d:\d\d UTC .*or run `loop reset` to close it now/,
    );
    // Every iteration's answer is kept, and loop logs shows it.
    const list = await loop(dir, ["logs", "--list"]);
    expect(list.stdout.match(/^ +\d+ +TASK-00\d/gm)).toHaveLength(5);
    const last = await loop(dir, ["logs", "--iteration", "2"]);
    expect(last.stdout).toContain("iteration: 2");
    expect(last.stdout).toContain("I looked at the task and will get to it.");
    // A blocked agent: its reason and recommendation are in the run, loop status and the log.
    await loop(dir, ["reset"]);
    const blocked = await loop(dir, ["run", ...agent("blocked-agent.mjs")]);
    expect(blocked.stderr).toContain("I cannot proceed without the Stripe API key.");
    expect(blocked.stderr).toContain("Add STRIPE_KEY to .env");
    const status = await loop(dir, ["status"]);
    expect(status.stdout).toContain("exited: blocked");
    expect(status.stdout).toContain("Add STRIPE_KEY to .env");
    const decisions = readFileSync(join(dir, ".claude", "loop", "logs", "decision.log"), "utf8");
    expect(decisions).toContain('"recommendation":"Add STRIPE_KEY to .env"');
    // loop reset is the way back: the next run calls the agent again and finishes the plan.
    const reset = await loop(dir, ["reset"]);
    expect(reset.stdout).toContain("iterations 1 → 0");
    const done = await loop(dir, ["run", "--cmd", `node ${DEMO_AGENT}`]);
    expect(done.stderr).toContain("iteration 1: TASK-001");
    expect(done.stderr).toContain("exit: all_tasks_complete");
    expect(done.code).toBe(0);
  });
});

describe("two terminals on one project (tmux)", { timeout: 60_000 }, () => {
  it("each pane keeps its own state in the project: a stuck loop in one does not stop the other", async () => {
    const dir = await gitProject("panes");
    const tmux = new TmuxPane(join(machine, "tmux.sock"));
    const inPane = (name: string, agentCommand: string) => {
      const run = [process.execPath, LOOP_BIN, "run", "--cmd", agentCommand].map(shellQuote);
      // The pane stays open after the run (until the test kills the server), for the next one.
      const script = `${run.join(" ")} 2> ${name}.err; echo $? > ${name}.code; exec sleep 60`;
      // The pane's own TMUX_PANE names its terminal; nothing else of the loop's is set.
      return `env -u LOOP_STATE_DIR -u LOOP_TERMINAL_ID HOME=${shellQuote(home)} NO_COLOR=1 sh -c ${shellQuote(script)}`;
    };
    const finished = async (name: string) => {
      const deadline = Date.now() + 30_000;
      while (!existsSync(join(dir, `${name}.code`)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return {
        code: readFileSync(join(dir, `${name}.code`), "utf8").trim(),
        stderr: readFileSync(join(dir, `${name}.err`), "utf8"),
      };
    };
    try {
      await tmux.start(inPane("stuck", `node ${join(machine, "idle-agent.mjs")}`), dir);
      const stuck = await finished("stuck");
      expect(stuck.stderr).toContain("exit: circuit_open");
      await tmux.tmux("split-window", "-d", "-c", dir, inPane("other", `node ${DEMO_AGENT}`));
      const other = await finished("other");
      expect(other.stderr).toContain("iteration 1: TASK-001");
      expect(other.stderr).toContain("exit: all_tasks_complete");
      expect(other.code).toBe("0");
      // One folder per pane (and the plan's and the project's locks, plan-<hash> and
      // project-<hash>, which no two loops share).
      const folders = readdirSync(join(dir, ".claude", "loop", "state", "terminals"));
      const terminals = folders.filter((id) => !/^(plan|project)-/.test(id));
      expect(terminals).toHaveLength(2);
      expect(terminals.every((id) => id.startsWith("tmux-"))).toBe(true);
    } finally {
      await tmux.kill();
    }
  });
});

describe("a second loop, and a crashed one", { timeout: 60_000 }, () => {
  it("a second loop on the terminal writes nothing; after kill -9, status says the loop crashed", async () => {
    const dir = await gitProject("crash");
    const child = spawn(process.execPath, [LOOP_BIN, "run", ...agent("slow-agent.mjs")], {
      cwd: dir,
      env,
      stdio: "ignore",
    });
    const pidFile = join(dir, "agent.pid");
    try {
      await agentStarted(child, pidFile);
      const running = await loop(dir, ["status"]);
      expect(running.stdout).toMatch(new RegExp(`run\\s+running \\(pid ${child.pid}\\)`));
      // A second loop on the same terminal is refused, and writes nothing.
      const statusFile = join(dir, ".claude", "loop", "status.json");
      const decisionLog = join(dir, ".claude", "loop", "logs", "decision.log");
      const before = [readFileSync(statusFile, "utf8"), readFileSync(decisionLog, "utf8")];
      const refused = await loop(dir, ["run", ...agent("idle-agent.mjs")]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`locked by another loop (pid ${child.pid}`);
      expect([readFileSync(statusFile, "utf8"), readFileSync(decisionLog, "utf8")]).toEqual(before);
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      const crashed = await loop(dir, ["status"]);
      expect(crashed.stdout).toContain(`crashed (pid ${child.pid} gone); \`loop run\` resumes it`);
    } finally {
      killLoopAndAgent(child, pidFile);
    }
  });
});

describe("two terminals, two plans, one project", { timeout: 60_000 }, () => {
  it("one loop runs in a project at a time unless plans.allow_per_terminal_plan; never two on one plan", async () => {
    const other = "# Other plan\n\n## Tasks\n- [ ] TASK-101 Write the docs\n";
    const dir = await gitProject("two-plans", { "other.md": other });
    const first = spawn(
      process.execPath,
      [LOOP_BIN, "run", "--terminal-id", "one", ...agent("slow-agent.mjs")],
      { cwd: dir, env, stdio: "ignore" },
    );
    const pidFile = join(dir, "agent.pid");
    try {
      await agentStarted(first, pidFile);
      const second = ["run", "other.md", "--terminal-id", "two", "--cmd", `node ${DEMO_AGENT}`];
      // The default: the project's terminals share one plan, so another plan waits its turn.
      const refused = await loop(dir, second);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`is being run by another loop (pid ${first.pid}`);
      expect(refused.stderr).toContain("set plans.allow_per_terminal_plan: true");
      expect(readFileSync(join(dir, "other.md"), "utf8")).toBe(other);

      // Each terminal its own plan: the second loop runs other.md while the first runs plan.md.
      await mkdir(join(dir, ".claude", "loop"), { recursive: true });
      await writeFile(
        join(dir, ".claude", "loop", "config.yaml"),
        "plans:\n  allow_per_terminal_plan: true\n",
      );
      const alongside = await loop(dir, second);
      expect(alongside.stderr).toContain("exit: all_tasks_complete");
      expect(alongside.code).toBe(0);
      expect(readFileSync(join(dir, "other.md"), "utf8")).toContain("- [x] TASK-101");

      // Two loops on one plan file are refused whatever the key says.
      const samePlan = await loop(dir, ["run", "--terminal-id", "two", ...agent("idle-agent.mjs")]);
      expect(samePlan.code).toBe(1);
      expect(samePlan.stderr).toContain(
        `${join(dir, "plan.md")} is being run by another loop (pid ${first.pid}`,
      );
    } finally {
      killLoopAndAgent(first, pidFile);
    }
  });
});

describe("a reader that goes away", { timeout: 60_000 }, () => {
  it("loop run --json | head -1: the loop stops as on Ctrl+C once its output has no reader", async () => {
    const dir = await gitProject("piped");
    const child = spawn(
      process.execPath,
      [LOOP_BIN, "run", "--json", ...agent("idle-agent.mjs"), "--max-iterations", "50"],
      { cwd: dir, env, stdio: ["ignore", "pipe", "ignore"] },
    );
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    // Like `head -1`: read one line, then close the pipe.
    await new Promise<void>((resolve) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        if (chunk.includes("\n")) {
          child.stdout.destroy();
          resolve();
        }
      });
    });
    expect(await exited).toBe(130);
    const state = readState(dir);
    expect(state.run).toMatchObject({ status: "exited", exit_reason: "aborted" });
    expect(state.loop_metadata.iterations).toBeLessThan(50);
  });
});

describe("a plan with nothing to do", { timeout: 60_000 }, () => {
  it("ends at once with no agent call: no task is an error (1), every box checked is complete (0)", async () => {
    const empty = await gitProject("empty", { "plan.md": "# Plan\n\n## Tasks\n\nNone yet.\n" });
    const none = await loop(empty, ["run", ...agent("note-agent.mjs")]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      `${join(empty, "plan.md")} has no tasks, so there is nothing to run`,
    );
    expect(existsSync(join(empty, "notes.md"))).toBe(false);

    const done = await gitProject("done", {
      "plan.md": TWO_TASK_PLAN.replaceAll("- [ ]", "- [x]"),
    });
    const complete = await loop(done, ["run", ...agent("note-agent.mjs")]);
    expect(complete.code).toBe(0);
    expect(complete.stderr).toContain("exit: all_tasks_complete after 0 iterations");
    expect(existsSync(join(done, "notes.md"))).toBe(false);
  });
});

describe("progress is the agent's work, not the loop's", { timeout: 120_000 }, () => {
  it("an agent that changes nothing is stopped alike in a git repository and outside git", async () => {
    const repository = await gitProject("repo");
    const folder = join(machine, "folder");
    await mkdir(folder);
    await writeFile(join(folder, "plan.md"), TWO_TASK_PLAN);
    const inGit = await loop(repository, ["run", ...agent("idle-agent.mjs")]);
    const outside = await loop(folder, ["run", ...agent("idle-agent.mjs")]);
    for (const run of [inGit, outside]) {
      expect(run.stderr).toContain("TASK-001 given up after 3 attempts");
      expect(run.stderr).toContain("exit: circuit_open after 5 iterations");
    }
  });

  it("says at the start when it cannot see every file: outside git, over 20,000 files", async () => {
    const folder = join(machine, "big");
    await mkdir(join(folder, "data"), { recursive: true });
    await writeFile(join(folder, "plan.md"), TWO_TASK_PLAN);
    for (let batch = 0; batch < 21; batch++) {
      const names = Array.from({ length: 1000 }, (_, index) => `f${batch}-${index}.txt`);
      await Promise.all(names.map((name) => writeFile(join(folder, "data", name), "")));
    }
    const run = await loop(folder, ["run", ...agent("idle-agent.mjs"), "--max-iterations", "1"]);
    expect(run.stderr).toContain(
      "loop run: the project is not a git repository and has more files than the 20,000 the loop compares",
    );
    const small = await gitProject("small");
    const inGit = await loop(small, ["run", ...agent("idle-agent.mjs"), "--max-iterations", "1"]);
    expect(inGit.stderr).not.toContain("not a git repository");
  });

  it("counts an edit to a file that was already changed before the run", async () => {
    const dir = await gitProject("edits", { "notes.md": "# Notes\n" });
    await writeFile(join(dir, "notes.md"), "# Notes\nuncommitted\n");
    const run = await loop(dir, ["run", ...agent("note-agent.mjs"), "--max-iterations", "4"]);
    expect(run.stderr).toContain("exit: max_iterations after 4 iterations");
    expect(run.stderr).not.toContain("given up");
    expect(readState(dir).task_attempts).toEqual({});
  });
});
