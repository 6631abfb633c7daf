import { readFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOOP_BIN } from "../cli/support.js";
import type { RecordedRequest, Reply } from "./stand-ins/anthropic-api.js";
import { agentBinary, pinnedVersions } from "./support/agent-binaries.js";
import { answeredTool } from "./support/answered-tool.js";
import { type ClaudeAuth, claudeEnvironment } from "./support/claude-environment.js";
import { useClaudeTestBed } from "./support/claude-test-bed.js";
import { jsonLines, runProcess } from "./support/run-process.js";

// `loop run` with the real Claude Code, as a user runs it: the built CLI in a real git
// repository, the default state location (under the test's HOME), Claude Code found by --bin.

const PLAN = `# Plan

- [ ] TASK-001 Add a greeting module
- [ ] TASK-002 Add a farewell module
`;

/**
 * An agent that works the task its prompt names: it reads the plan, checks that task's box with
 * Edit, then answers with a status block (EXIT_SIGNAL once no box is left open).
 */
function planAgent(project: string): (request: RecordedRequest) => Reply {
  const path = join(project, "plan.md");
  return (request) => {
    const answered = answeredTool(request);
    const plan = readFileSync(path, "utf8");
    if (answered === "Edit") {
      const done = !plan.includes("- [ ]");
      return {
        text: [
          "Implemented the task; its tests pass.",
          "---RALPH_STATUS---",
          `STATUS: ${done ? "COMPLETE" : "IN_PROGRESS"}`,
          "TASKS_COMPLETED_THIS_LOOP: 1",
          "FILES_MODIFIED: 1",
          "TESTS_STATUS: PASSING",
          "WORK_TYPE: IMPLEMENTATION",
          `EXIT_SIGNAL: ${done}`,
          `RECOMMENDATION: ${done ? "All tasks are done" : "Continue with the next task"}`,
          "---END_RALPH_STATUS---",
        ].join("\n"),
      };
    }
    if (answered !== "Read") {
      return { text: "Reading the plan.", tools: [{ name: "Read", input: { file_path: path } }] };
    }
    const prompt = request.body?.messages ? JSON.stringify(request.body.messages) : "";
    const task = /TASK-\d{3}/.exec(prompt)?.[0] ?? "TASK-001";
    const line = plan.split("\n").find((text) => text.startsWith(`- [ ] ${task}`));
    if (line === undefined) return { text: `Nothing to do for ${task}.` };
    return {
      text: `Checking ${task}.`,
      tools: [
        {
          name: "Edit",
          input: { file_path: path, old_string: line, new_string: line.replace("- [ ]", "- [x]") },
        },
      ],
    };
  };
}

describe.each(pinnedVersions("claude"))("loop run with Claude Code %s", (version) => {
  const claude = agentBinary("claude", version);
  const bed = useClaudeTestBed({ "plan.md": PLAN });

  async function loop(
    args: readonly string[],
    script: (request: RecordedRequest) => Reply,
    options: { auth?: ClaudeAuth; extra?: Record<string, string | undefined> } = {},
  ) {
    const standIn = await bed.startStandIn({ script });
    const env = claudeEnvironment({
      baseUrl: standIn.url,
      home: bed.home,
      auth: options.auth,
      extra: options.extra,
    });
    return runProcess(process.execPath, [LOOP_BIN, "run", "--bin", claude.path, ...args], {
      cwd: bed.project,
      env,
      timeoutMs: 180_000,
    });
  }

  it("runs the plan to completion, Claude Code checking the boxes", async () => {
    const run = await loop(["--permission-mode", "acceptEdits"], planAgent(bed.project));
    expect(run.stderr).toContain("all_tasks_complete");
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(bed.project, "plan.md"), "utf8")).not.toContain("- [ ]");
    const state = JSON.parse(
      await readFile(
        join(bed.project, ".claude/loop/state/terminals/default/loop_state.json"),
        "utf8",
      ),
    );
    expect(state.completed_tasks).toEqual(["TASK-001", "TASK-002"]);
    expect(state.cost_usd).toBeGreaterThan(0);
  });

  it("a subscriber on extra usage: every paid iteration counts, none is waited out or run again", async () => {
    // With on_limit: exit, an iteration taken for a limit would end the run with usage_limit.
    await mkdir(join(bed.project, ".claude/loop"), { recursive: true });
    await writeFile(
      join(bed.project, ".claude/loop/config.yaml"),
      "usage_limit:\n  on_limit: exit\n",
    );
    const reset = String(Math.floor(Date.now() / 1000) + 3600);
    const agent = planAgent(bed.project);
    const onOverage = (request: RecordedRequest): Reply => ({
      ...agent(request),
      headers: {
        "anthropic-ratelimit-unified-status": "rejected",
        "anthropic-ratelimit-unified-reset": reset,
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
        "anthropic-ratelimit-unified-overage-status": "allowed",
      },
    });
    const run = await loop(["--permission-mode", "acceptEdits", "--json"], onOverage, {
      auth: "subscription",
    });
    expect(run.code, run.stderr).toBe(0);
    const events = jsonLines(run.stdout);
    expect(events.filter((event) => event.type === "wait")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ exitReason: "all_tasks_complete" });
    const state = JSON.parse(
      await readFile(
        join(bed.project, ".claude/loop/state/terminals/default/loop_state.json"),
        "utf8",
      ),
    );
    expect(state.completed_tasks).toEqual(["TASK-001", "TASK-002"]);
    expect(state.cost_usd).toBeGreaterThan(0);
  });

  it("a user who is not logged in reads the CLI's own words, not an error code", async () => {
    const run = await loop(["--max-iterations", "1"], planAgent(bed.project), { auth: "none" });
    expect(run.stderr).toContain("Not logged in · Please run /login");
    expect(run.stderr).not.toContain("(success)");
  });

  it("--dangerously-skip-permissions as root stops before the first iteration, saying what to do", async () => {
    await writeFile(join(bed.project, "plan.md"), PLAN);
    const run = await loop(["--dangerously-skip-permissions"], planAgent(bed.project), {
      extra: { IS_SANDBOX: undefined },
    });
    if (process.getuid?.() === 0) {
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("refuses --dangerously-skip-permissions as root");
      expect(run.stderr).toContain("IS_SANDBOX=1");
      expect(bed.standIn?.requests).toHaveLength(0);
    } else {
      expect(run.stderr).toContain("all_tasks_complete");
    }
  });
});
