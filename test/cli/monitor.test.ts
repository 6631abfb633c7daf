import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  createDecisionEvent,
  createInitialState,
  createStateManager,
  type DecisionEvent,
  type LoopState,
  startRun,
} from "@loop/core";
import { createFileStateStore, createJsonlLogger, createStatusFile, type Status } from "@loop/fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestProject, LOOP_BIN, type TestProject } from "./support.js";
import { shellQuote, TmuxPane } from "./tmux-pane.js";

// `loop monitor` on a real terminal: tmux runs it in a detached 100×30 pane on a private
// server (its socket in the test's folder); the tests read the pane as a person would see it (`capture-pane`), type keys
// (`send-keys`) and ask tmux whether the alternate screen is still on and the cursor shown.
// Build first: `pnpm --filter @loop/cli build`.

const execFileAsync = promisify(execFile);

const TERMINAL = "test-terminal";

const PLAN = `# Plan

## Tasks

- [x] TASK-001 Design the schema
- [x] TASK-002 Hash passwords
- [ ] TASK-003 Create login endpoint
- [ ] TASK-004 Remember-me cookie
- [ ] TASK-005 Log out
`;

/** A running loop's state: TASK-001 and TASK-002 done, at TASK-003, iteration 3. */
function loopState(changes: Partial<LoopState> = {}): LoopState {
  const now = new Date().toISOString();
  const state = startRun(createInitialState({ planPath: "plan.md", now }), {
    runId: "run-1",
    now,
  });
  return {
    ...state,
    current_task_id: "TASK-003",
    completed_tasks: ["TASK-001", "TASK-002"],
    loop_metadata: { ...state.loop_metadata, iterations: 3 },
    cost_usd: 0.42,
    ...changes,
  };
}

function status(changes: Partial<Status> = {}): Status {
  return {
    timestamp: new Date().toISOString(),
    loop_count: 3,
    calls_made_this_hour: 3,
    max_calls_per_hour: 100,
    last_action: "executing",
    status: "running",
    exit_reason: "",
    next_reset: "13:00:00",
    terminal_id: TERMINAL,
    plan_path: "plan.md",
    ...changes,
  };
}

function iterationStart(iteration: number, task: string): DecisionEvent {
  return createDecisionEvent(
    TERMINAL,
    "iteration_start",
    { iteration, current_task_id: task, total_tasks: 5 },
    new Date().toISOString(),
  );
}

/** Writes the loop's files through the SDK, as `loop run` does. */
class LoopFiles {
  constructor(private readonly project: TestProject) {}

  async writeState(state: LoopState): Promise<void> {
    const store = createFileStateStore({ root: this.project.stateDir });
    await createStateManager(store).writeState(TERMINAL, state);
  }

  async writeStatus(value: Status): Promise<void> {
    await createStatusFile({ path: join(this.project.dir, ".claude/loop/status.json") }).write(
      value,
    );
  }

  async log(...events: DecisionEvent[]): Promise<void> {
    const logger = createJsonlLogger({
      path: join(this.project.dir, ".claude/loop/logs/decision.log"),
    });
    for (const event of events) await logger.log(event);
    await logger.close();
  }

  async checkTask(id: string): Promise<void> {
    const path = join(this.project.dir, "plan.md");
    const text = await readFile(path, "utf8");
    await writeFile(path, text.replace(`- [ ] ${id} `, `- [x] ${id} `));
  }
}

/**
 * The pane's command: print a marker on the shell's screen, run `loop monitor` with the
 * project's environment, print its exit code, and stay open so the pane can be read.
 */
function monitorCommand(project: TestProject, args: readonly string[] = []): string {
  const environment = Object.entries({ ...project.env, TERM: "xterm-256color" }).map(
    ([name, value]) => shellQuote(`${name}=${value}`),
  );
  const monitor = [process.execPath, LOOP_BIN, "monitor", ...args].map(shellQuote).join(" ");
  const script = `echo BEFORE_MONITOR; ${monitor}; echo MONITOR_EXIT=$?; sleep 60`;
  return `env -i ${environment.join(" ")} sh -c ${shellQuote(script)}`;
}

describe("loop monitor in a real terminal (tmux)", () => {
  let project: TestProject;
  let files: LoopFiles;
  let pane: TmuxPane;

  beforeEach(async () => {
    project = await createTestProject();
    files = new LoopFiles(project);
    pane = new TmuxPane(join(project.dir, "tmux.sock"));
    await writeFile(join(project.dir, "plan.md"), PLAN);
  });

  afterEach(async () => {
    await pane.kill();
    await project.remove();
  });

  it("shows the loop, follows its files, and quits on q restoring the terminal", async () => {
    await files.writeState(loopState());
    await files.writeStatus(status());
    await files.log(iterationStart(3, "TASK-003"));

    await pane.start(monitorCommand(project), project.dir);
    const first = await pane.waitFor("the dashboard", (screen) =>
      screen.includes("Recent decisions"),
    );
    expect(first).toContain("terminal test-terminal");
    expect(first).toMatch(/running · iteration 3/);
    expect(first).toMatch(/\[█+░+\] 2\/5 40%/);
    expect(first).toContain("TASK-003 Create login endpoint");
    expect(first).toContain("3/100 calls this hour");
    expect(first).toContain("cost $0.42");
    expect(first).toContain("breaker CLOSED");
    expect(first).toMatch(/\d\d:\d\d:\d\d {2}iteration_start +#3 TASK-003 of 5 tasks/);
    expect(first).not.toContain("BEFORE_MONITOR");
    expect(await pane.variable("#{alternate_on}")).toBe("1");
    expect(await pane.variable("#{cursor_flag}")).toBe("0");

    // The loop moves on: TASK-003 checked, TASK-004 started, a new event.
    await files.checkTask("TASK-003");
    await files.writeState(
      loopState({
        current_task_id: "TASK-004",
        completed_tasks: ["TASK-001", "TASK-002", "TASK-003"],
      }),
    );
    await files.log(iterationStart(4, "TASK-004"));
    const moved = await pane.waitFor(
      "the dashboard to show TASK-004",
      (screen) => screen.includes("TASK-004 Remember-me cookie") && screen.includes("#4 TASK-004"),
    );
    expect(moved).toMatch(/\[█+░+\] 3\/5 60%/);
    expect(moved).toMatch(/iteration_start +#3 TASK-003/);
    expect(moved).toMatch(/iteration_start +#4 TASK-004 of 5 tasks/);

    // A narrower terminal: the dashboard is drawn again to fit, cutting what is too long.
    await pane.tmux("resize-window", "-x", "50");
    const narrow = await pane.waitFor(
      "the dashboard to fit 50 columns",
      (screen) => /^Tasks +\[[█░]+\] 3\/5 60%$/m.test(screen) && /^Run .*…$/m.test(screen),
    );
    expect(narrow).toContain("TASK-004 Remember-me cookie");

    await pane.keys("q");
    const after = await pane.waitFor("the monitor to exit", (screen) =>
      screen.includes("MONITOR_EXIT="),
    );
    expect(after).toContain("MONITOR_EXIT=0");
    expect(after).toContain("BEFORE_MONITOR");
    expect(after).not.toContain("Recent decisions");
    expect(await pane.variable("#{alternate_on}")).toBe("0");
    expect(await pane.variable("#{cursor_flag}")).toBe("1");
  });

  it("counts down a wait for the usage limit, and quits on Ctrl+C", async () => {
    const resetAt = new Date(Date.now() + 12 * 60_000 + 30_000).toISOString();
    await files.writeState(loopState());
    await files.writeStatus(status({ last_action: "usage_limit_wait", wait_until: resetAt }));
    await files.log(
      iterationStart(3, "TASK-003"),
      createDecisionEvent(
        TERMINAL,
        "usage_limit_wait",
        { reset_at: resetAt, wait_ms: 750_000, message: "Claude usage limit reached" },
        new Date().toISOString(),
      ),
    );

    await pane.start(monitorCommand(project), project.dir);
    const countdown = /waiting for usage limit: (\d+)m (\d\d)s/;
    const first = await pane.waitFor("the countdown", (screen) => countdown.test(screen));
    const secondsLeft = (screen: string) => {
      const match = countdown.exec(screen);
      return Number(match?.[1]) * 60 + Number(match?.[2]);
    };
    const start = secondsLeft(first);
    expect(start).toBeGreaterThan(11 * 60);
    expect(start).toBeLessThanOrEqual(12 * 60 + 30);
    // The countdown ticks without any file changing.
    const later = await pane.waitFor("the countdown to tick", (screen) => {
      const left = countdown.test(screen) ? secondsLeft(screen) : start;
      return left < start;
    });
    expect(secondsLeft(later)).toBeGreaterThanOrEqual(start - 10);
    expect(later).toMatch(/usage_limit_wait +waits 12m 30s: Claude usage limit reached/);

    await pane.keys("C-c");
    const after = await pane.waitFor("the monitor to exit", (screen) =>
      screen.includes("MONITOR_EXIT="),
    );
    expect(after).toContain("MONITOR_EXIT=0");
    expect(await pane.variable("#{alternate_on}")).toBe("0");
    expect(await pane.variable("#{cursor_flag}")).toBe("1");
  });

  it("waits for a loop that has not started, shows it when it does, and quits on SIGTERM", async () => {
    await pane.start(monitorCommand(project), project.dir);
    await pane.waitFor("the empty dashboard", (screen) =>
      screen.includes("no loop state yet: start one with `loop run`"),
    );

    // The state folder did not exist when the monitor started.
    await files.writeState(loopState());
    const started = await pane.waitFor("the loop to appear", (screen) =>
      screen.includes("TASK-003 Create login endpoint"),
    );
    expect(started).toMatch(/running · iteration 3/);

    const shell = await pane.variable("#{pane_pid}");
    const { stdout } = await execFileAsync("ps", ["-o", "pid=", "--ppid", shell]);
    const monitorPid = Number(stdout.trim().split(/\s+/)[0]);
    expect(monitorPid).toBeGreaterThan(0);
    process.kill(monitorPid, "SIGTERM");
    const after = await pane.waitFor("the monitor to exit", (screen) =>
      screen.includes("MONITOR_EXIT="),
    );
    expect(after).toContain("MONITOR_EXIT=0");
    expect(await pane.variable("#{alternate_on}")).toBe("0");
    expect(await pane.variable("#{cursor_flag}")).toBe("1");
  });
});

describe("loop monitor without a terminal", () => {
  let project: TestProject;

  beforeEach(async () => {
    project = await createTestProject();
    await writeFile(join(project.dir, "plan.md"), PLAN);
  });

  afterEach(async () => {
    await project.remove();
  });

  it("refuses the live dashboard and points to --once", async () => {
    const result = await project.run(["monitor"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("standard output is not a terminal");
    expect(result.stderr).toContain("--once");
  });

  it("prints one plain frame with --once", async () => {
    const files = new LoopFiles(project);
    await files.writeState(loopState());
    await files.log(iterationStart(3, "TASK-003"));
    const result = await project.run(["monitor", "--once", "--events", "5"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("loop monitor · terminal test-terminal");
    expect(result.stdout).toMatch(/\[█+░+\] 2\/5 40%/);
    expect(result.stdout).toContain("TASK-003 Create login endpoint");
    expect(result.stdout).toMatch(/iteration_start +#3 TASK-003 of 5 tasks/);
    expect(result.stdout).not.toContain("\u001b");
    expect(result.stdout).not.toContain("q quit");
  });

  it("rejects a bad --events, as loop status does: one rule", async () => {
    for (const command of ["monitor", "status"]) {
      for (const value of ["0", "two", "1.5"]) {
        const args = command === "monitor" ? ["monitor", "--once"] : ["status"];
        const result = await project.run([...args, "--events", value]);
        expect(result.code, `${command} --events ${value}`).toBe(2);
        expect(result.stderr).toContain("--events");
      }
    }
  });
});
