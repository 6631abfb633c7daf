import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parsePlan } from "@loop/core";
import { describe, expect, it } from "vitest";
import { LOOP_BIN } from "../cli/support.js";
import type { RecordedRequest, Reply } from "./stand-ins/anthropic-api.js";
import { agentBinary, pinnedVersions } from "./support/agent-binaries.js";
import { answeredTool } from "./support/answered-tool.js";
import { claudeEnvironment } from "./support/claude-environment.js";
import { useClaudeTestBed } from "./support/claude-test-bed.js";
import { runProcess } from "./support/run-process.js";

// `loop run --parallel 2` with the real Claude Code, as a user runs it: the built CLI in a real
// git repository (no .gitignore for the loop's folder), the default state location, Claude Code
// found by --bin. Each task's Claude Code runs in its own git worktree: it must take the
// worktree for its project, its edits must land there (not in the main working tree), and the
// box it checks is the one in the worktree's copy of the plan, which the loop carries over.

const PLAN = `# Plan

## Modules (parallel)

- [ ] TASK-001 Add a greeting module
- [ ] TASK-002 Add a farewell module
`;

/** What the stand-in saw of one agent's turn: where it ran, on which task. */
interface Turn {
  readonly cwd: string;
  readonly task: string;
}

/**
 * The working directory Claude Code tells its model it runs in: "Working directory: …" in the
 * system prompt's environment (older 2.1.x) or "Primary working directory: …" in a system
 * message (newer).
 */
function workingDirectory(request: RecordedRequest): string | null {
  const told = JSON.stringify([request.body?.system ?? "", request.body?.messages ?? []]);
  return /working directory: ([^\s\\]+)/i.exec(told)?.[1] ?? null;
}

/**
 * Holds each agent's first turn until both tasks' agents have asked for theirs (or 30 s have
 * passed): both met there only if the two Claude Code processes ran at the same time.
 */
class Together {
  readonly #waiting = new Set<string>();
  readonly #release: (() => void)[] = [];
  /** Whether both agents were waiting at once. */
  met = false;

  constructor(private readonly count: number) {}

  arrive(task: string): Promise<void> {
    this.#waiting.add(task);
    if (this.#waiting.size >= this.count) {
      this.met = true;
      for (const release of this.#release.splice(0)) release();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, 30_000);
      this.#release.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/**
 * An agent that works the task its prompt names, in the directory Claude Code says it runs in:
 * it writes `src/<task>.txt` with Write, reads the plan there, checks its task's box with Edit,
 * and answers with a status block.
 */
function worktreeAgent(
  turns: Turn[],
  together: Together,
): (request: RecordedRequest) => Promise<Reply> {
  return async (request) => {
    const cwd = workingDirectory(request);
    const prompt = JSON.stringify(request.body?.messages ?? []);
    const task = /Your task is `(TASK-\d{3})`/.exec(prompt)?.[1];
    if (cwd === null || task === undefined) {
      return { text: "I cannot tell where I am or what my task is." };
    }
    turns.push({ cwd, task });
    const plan = join(cwd, "plan.md");
    const answered = answeredTool(request);
    if (answered === null) {
      await together.arrive(task);
      return {
        text: `Writing ${task}'s module.`,
        tools: [
          {
            name: "Write",
            input: { file_path: join(cwd, "src", `${task}.txt`), content: `${task} works\n` },
          },
        ],
      };
    }
    if (answered === "Write") {
      return { text: "Reading the plan.", tools: [{ name: "Read", input: { file_path: plan } }] };
    }
    if (answered === "Read") {
      const line = readFileSync(plan, "utf8")
        .split("\n")
        .find((text) => text.startsWith(`- [ ] ${task}`));
      if (line === undefined) return { text: `${task}'s box is not open in ${plan}.` };
      return {
        text: `Checking ${task}.`,
        tools: [
          {
            name: "Edit",
            input: {
              file_path: plan,
              old_string: line,
              new_string: line.replace("- [ ]", "- [x]"),
            },
          },
        ],
      };
    }
    return {
      text: [
        `Implemented ${task}; its tests pass.`,
        "---RALPH_STATUS---",
        "STATUS: COMPLETE",
        "TASKS_COMPLETED_THIS_LOOP: 1",
        "FILES_MODIFIED: 1",
        "TESTS_STATUS: PASSING",
        "WORK_TYPE: IMPLEMENTATION",
        "EXIT_SIGNAL: false",
        "RECOMMENDATION: Continue with the next task",
        "---END_RALPH_STATUS---",
      ].join("\n"),
    };
  };
}

/**
 * Two tasks that both write `notes.txt` (their merge conflicts), and a merge agent: given the
 * loop's merge prompt, it writes `notes.txt` with both tasks' lines, no conflict marker left.
 */
function conflictingAgents(merges: string[]): (request: RecordedRequest) => Promise<Reply> {
  const together = new Together(2);
  return async (request) => {
    const cwd = workingDirectory(request);
    const prompt = JSON.stringify(request.body?.messages ?? []);
    if (cwd === null) return { text: "I cannot tell where I am." };
    const answered = answeredTool(request);
    const notes = join(cwd, "notes.txt");
    const plan = join(cwd, "plan.md");
    if (prompt.includes("A merge conflicts")) {
      // Claude Code edits a file it has read: read the conflicted file, then write it whole.
      if (answered === null) {
        merges.push(cwd);
        return {
          text: "Reading the conflict.",
          tools: [{ name: "Read", input: { file_path: notes } }],
        };
      }
      if (answered === "Read") {
        return {
          text: "Keeping both sides.",
          tools: [{ name: "Write", input: { file_path: notes, content: "greeting\nfarewell\n" } }],
        };
      }
      return { text: "Resolved the conflict in notes.txt, keeping both." };
    }
    const task = /Your task is `(TASK-\d{3})`/.exec(prompt)?.[1];
    if (task === undefined) return { text: "No task named." };
    if (answered === null) {
      await together.arrive(task);
      return { text: "Reading the plan.", tools: [{ name: "Read", input: { file_path: plan } }] };
    }
    if (answered === "Read") {
      const line = task === "TASK-001" ? "greeting" : "farewell";
      return {
        text: `Writing ${task}'s note.`,
        tools: [{ name: "Write", input: { file_path: notes, content: `${line}\n` } }],
      };
    }
    if (answered === "Write") {
      const box = readFileSync(plan, "utf8")
        .split("\n")
        .find((text) => text.startsWith(`- [ ] ${task}`));
      if (box === undefined) return { text: `${task}'s box is not open.` };
      return {
        text: `Checking ${task}.`,
        tools: [
          {
            name: "Edit",
            input: { file_path: plan, old_string: box, new_string: box.replace("- [ ]", "- [x]") },
          },
        ],
      };
    }
    return { text: `Did ${task}.` };
  };
}

describe.each(pinnedVersions("claude"))("loop run --parallel 2 with Claude Code %s", (version) => {
  const claude = agentBinary("claude", version);
  const bed = useClaudeTestBed({ "plan.md": PLAN, "README.md": "# app\n" });

  /** `loop run --parallel 2` in the project, Claude Code answered by `script`. */
  async function parallelRun(
    script: (request: RecordedRequest) => Promise<Reply>,
    extra: readonly string[] = [],
  ) {
    const standIn = await bed.startStandIn({ script });
    const env = claudeEnvironment({ baseUrl: standIn.url, home: bed.home });
    const args = ["run", "--parallel", "2", ...extra, "--bin", claude.path];
    return runProcess(process.execPath, [LOOP_BIN, ...args, "--permission-mode", "acceptEdits"], {
      cwd: bed.project,
      env,
      timeoutMs: 240_000,
    });
  }

  /** git in the project, its output trimmed. */
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: bed.project, encoding: "utf8" }).trim();

  it("runs each task's Claude Code in its own worktree and merges both tasks' work", async () => {
    const turns: Turn[] = [];
    const together = new Together(2);
    const run = await parallelRun(worktreeAgent(turns, together));
    expect(run.code, run.stderr).toBe(0);

    // Both tasks' work is on the main line, and both boxes are checked in the main plan.
    expect(git("ls-tree", "--name-only", "HEAD", "src/").split("\n")).toEqual([
      "src/TASK-001.txt",
      "src/TASK-002.txt",
    ]);
    expect(git("show", "HEAD:src/TASK-002.txt")).toBe("TASK-002 works");
    const plan = parsePlan(await readFile(join(bed.project, "plan.md"), "utf8"));
    expect(plan.tasks.map((task) => [task.id, task.done])).toEqual([
      ["TASK-001", true],
      ["TASK-002", true],
    ]);
    const state = JSON.parse(
      await readFile(
        join(bed.project, ".claude/loop/state/terminals/default/loop_state.json"),
        "utf8",
      ),
    );
    // In the order they were merged, which is the order the agents finished in.
    expect([...state.completed_tasks].sort()).toEqual(["TASK-001", "TASK-002"]);
    expect(state.workers).toBeUndefined();

    // Each task's Claude Code ran in a worktree of its own, outside the main working tree's
    // files, and the two ran at the same time (both waited in their first turn at once).
    const worktrees = new Map<string, string>();
    for (const turn of turns) worktrees.set(turn.task, turn.cwd);
    expect([...worktrees.keys()].sort()).toEqual(["TASK-001", "TASK-002"]);
    const places = [...worktrees.values()];
    expect(new Set(places).size).toBe(2);
    for (const place of places) {
      expect(place.startsWith(join(bed.project, ".loop/worktrees/"))).toBe(true);
    }
    expect(together.met).toBe(true);

    // Claude Code kept each session under its worktree's own project folder.
    const projects = readdirSync(join(bed.home, ".claude", "projects"));
    for (const place of places) {
      expect(projects).toContain(place.replace(/[^A-Za-z0-9]/g, "-"));
    }
    // Nothing the agents wrote landed in the main working tree but through the merge (what is
    // left uncommitted there is the plan's checked boxes and the loop's own folder), and no
    // worktree is left once the plan is done.
    const uncommitted = git("status", "--porcelain", "--untracked-files=all")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("?? .claude/loop/"));
    expect(uncommitted).toEqual(["M plan.md"]);
    for (const place of places) expect(existsSync(place)).toBe(false);
  });

  it("--merge-agent: Claude Code resolves two tasks' conflicting merge in the worktree", async () => {
    const merges: string[] = [];
    const run = await parallelRun(conflictingAgents(merges), ["--merge-agent"]);
    expect(run.code, run.stderr).toBe(0);
    expect(git("show", "HEAD:notes.txt")).toBe("greeting\nfarewell");
    expect(merges).toHaveLength(1);
    expect(merges[0]?.startsWith(join(bed.project, ".loop/worktrees/"))).toBe(true);
    const integrated = (await readFile(join(bed.project, ".claude/loop/logs/decision.log"), "utf8"))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { event: string; payload: { resolved?: boolean } })
      .filter((event) => event.event === "task_integrated");
    expect(integrated.map((event) => event.payload?.resolved).sort()).toEqual([false, true]);
    const plan = parsePlan(await readFile(join(bed.project, "plan.md"), "utf8"));
    expect(plan.tasks.every((task) => task.done)).toBe(true);
  });
});
