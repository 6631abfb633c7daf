import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ClaudeExecutor, type ClaudeExecutorOptions } from "@loop/claude";
import { type ExecutionRequest, runLoop } from "@loop/core";
import { createFileStateStore, filePlan } from "@loop/fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { executionRequest } from "./support/execution-request.js";

const FAKE_CLAUDE = fileURLToPath(new URL("./fixtures/fake-claude.mjs", import.meta.url));
const QUICKSTART_PLAN = fileURLToPath(new URL("../examples/quickstart/plan.md", import.meta.url));
/** The reset the fake's usage-limit scenarios report, epoch seconds. */
const RESET_EPOCH = 1_900_000_000;

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "loop-claude-executor-"));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** A request whose prompt asks for a bug fix: the fake claude gets it after `-p`. */
const request = (overrides: Partial<ExecutionRequest> = {}) =>
  executionRequest({ prompt: "Fix the bug", ...overrides });

function fakeClaude(scenario: string, options: Partial<ClaudeExecutorOptions> = {}) {
  return new ClaudeExecutor({
    bin: FAKE_CLAUDE,
    env: {
      PATH: process.env.PATH,
      FAKE_CLAUDE_SCENARIO: scenario,
      FAKE_CLAUDE_ARGV_FILE: join(folder, "argv.json"),
    },
    ...options,
  });
}

const run = (executor: ClaudeExecutor, overrides: Partial<ExecutionRequest> = {}) =>
  executor.execute(request(overrides), { signal: new AbortController().signal });

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("ClaudeExecutor", () => {
  it("is an Executor v1 named claude", () => {
    const executor = new ClaudeExecutor({});
    expect(executor.name).toBe("claude");
    expect(executor.specificationVersion).toBe("v1");
  });

  it("passes a hostile task text as one argument, with the options, never through a shell", async () => {
    const prompt = "Work on TASK-001: $(rm -rf ~) `whoami` ; echo pwned";
    const executor = fakeClaude("success", {
      model: "sonnet",
      allowedTools: ["Edit", "Bash(git:*)"],
      maxTurns: 5,
      continueSession: true,
    });
    const result = await run(executor, { prompt, sessionId: "sess-previous" });
    expect(result.success).toBe(true);
    expect(JSON.parse(readFileSync(join(folder, "argv.json"), "utf8"))).toEqual([
      "-p",
      prompt,
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "sonnet",
      "--allowedTools",
      "Edit,Bash(git:*)",
      "--max-turns",
      "5",
      "--resume",
      "sess-previous",
    ]);
    expect(executor.commandLine({ prompt, sessionId: "sess-previous" })).toEqual({
      command: FAKE_CLAUDE,
      args: JSON.parse(readFileSync(join(folder, "argv.json"), "utf8")),
      stdin: null,
    });
  });

  it("reports the files a run changed when given a progress probe", async () => {
    const snapshot = { repositories: [] };
    const calls: string[] = [];
    const executor = fakeClaude("success", {
      progress: {
        before: async () => {
          calls.push("before");
          return snapshot;
        },
        after: async (taken) => {
          calls.push(taken === snapshot ? "after(snapshot)" : "after(other)");
          return { filesChanged: 4, commits: 1 };
        },
      },
    });
    expect((await run(executor)).filesChanged).toBe(4);
    expect(calls).toEqual(["before", "after(snapshot)"]);
    expect((await run(fakeClaude("success"))).filesChanged).toBeUndefined();
  });

  it("a success reports the result text, the cost and the session id", async () => {
    const events: string[] = [];
    const lines: string[] = [];
    const executor = fakeClaude("success", {
      onEvent: (event) => events.push(String(event.type)),
      onLine: (line) => lines.push(line.stream),
    });
    const result = await run(executor);
    expect(result).toMatchObject({
      output: "Done: the bug is fixed.",
      success: true,
      costUsd: 0.12,
      sessionId: "sess-fake-0001",
      permissionDenials: [],
    });
    expect(result.error).toBeUndefined();
    expect(events).toEqual(["system", "assistant", "result"]);
    expect(lines).toEqual(["stdout", "stdout", "stdout"]);
  });

  it("keeps the stream-json as the CLI printed it in raw, for the iteration log", async () => {
    const printed: string[] = [];
    const result = await run(fakeClaude("success", { onLine: (line) => printed.push(line.text) }));
    expect(result.raw).toBe(`${printed.join("\n")}\n`);
    const events = (result.raw ?? "")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events).toMatchObject([
      { type: "system", subtype: "init", session_id: "sess-fake-0001" },
      {
        type: "assistant",
        message: { content: [{ type: "text", text: "Done: the bug is fixed." }] },
      },
      { type: "result", result: "Done: the bug is fixed.", total_cost_usd: 0.12 },
    ]);
    // stderr follows the stream on a line of its own.
    const crashed = await run(fakeClaude("crash-before-result"));
    expect(crashed.raw).toMatch(/^\{"type":"system".*\}\n--- stderr ---\nfake-claude: crashed\n$/);
  });

  it("a resumed session that is gone runs again in a new one; raw keeps both runs", async () => {
    const executor = fakeClaude("session-gone", { continueSession: true });
    const result = await run(executor, { sessionId: "sess-old" });
    expect(result).toMatchObject({ success: true, sessionId: "sess-fake-0001" });
    const events = (result.raw ?? "")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.map((event) => [event.type, event.session_id])).toEqual([
      ["result", "sess-old"],
      ["system", "sess-fake-0001"],
      ["assistant", "sess-fake-0001"],
      ["result", "sess-fake-0001"],
    ]);
  });

  it("is_error with exit code 0 is a failure", async () => {
    const result = await run(fakeClaude("is-error-exit-0"));
    expect(result.success).toBe(false);
    expect(result.error).toBe("Claude Code: Something went wrong.");
    expect(result.usageLimit).toBeUndefined();
  });

  it("a usage limit is reported with its reset time", async () => {
    const result = await run(fakeClaude("usage-limit"));
    expect(result.success).toBe(false);
    expect(result.usageLimit).toEqual({
      resetAt: RESET_EPOCH * 1000,
      waitable: true,
      message: "Claude AI usage limit reached",
    });
  });

  it("a rejected rate_limit_event is a usage limit, ahead of the result text", async () => {
    const result = await run(fakeClaude("rate-limit-rejected"));
    expect(result.success).toBe(false);
    expect(result.usageLimit).toMatchObject({ resetAt: RESET_EPOCH * 1000, waitable: true });
  });

  it("a transient 429 overload is a failure, not a usage limit", async () => {
    const result = await run(fakeClaude("overload-429"));
    expect(result.success).toBe(false);
    expect(result.usageLimit).toBeUndefined();
  });

  it("reports the permission denials", async () => {
    const result = await run(fakeClaude("permission-denials"));
    expect(result.permissionDenials).toEqual([
      { tool: "Bash", detail: "rm -rf build" },
      { tool: "Write", detail: "/etc/hosts" },
    ]);
  });

  it("a crash before the result is a failure that keeps the init event's session id", async () => {
    const result = await run(fakeClaude("crash-before-result"));
    expect(result).toMatchObject({
      success: false,
      sessionId: "sess-fake-0001",
      error: "Claude Code exited with code 1 before writing a result: fake-claude: crashed",
    });
  });

  it("reads a multi-byte character split across two writes", async () => {
    const result = await run(fakeClaude("multibyte-split"));
    expect(result).toMatchObject({ success: true, output: "café" });
  });

  it("a hang ends on abort, and the process is gone", async () => {
    const controller = new AbortController();
    let pid: number | undefined;
    const executor = fakeClaude("hang", {
      onEvent: (event) => {
        if (typeof event.pid === "number") {
          pid = event.pid;
          controller.abort();
        }
      },
    });
    const result = await executor.execute(request(), { signal: controller.signal });
    expect(result).toMatchObject({ success: false, error: "aborted" });
    expect(pid).toBeTypeOf("number");
    expect(isAlive(pid as number)).toBe(false);
  });

  it("a loop over the quickstart plan with ClaudeExecutor pointed at the fake claude runs to completion", async () => {
    const planPath = join(folder, "plan.md");
    copyFileSync(QUICKSTART_PLAN, planPath);
    const result = await runLoop({
      plan: filePlan(planPath),
      executor: fakeClaude("loop", { cwd: folder }),
      store: createFileStateStore({ root: join(folder, "state") }),
      config: { limits: { iteration_timeout_minutes: 1 } },
      terminalId: "claude_fake",
    });
    expect(result.error).toBeNull();
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(result.complete).toBe(true);
    expect(result.tasksCompleted).toEqual(
      expect.arrayContaining(["TASK-001", "TASK-002", "TASK-003", "TASK-004", "TASK-005"]),
    );
    expect(readFileSync(planPath, "utf8")).not.toMatch(/- \[ \]/);
  }, 60_000);
});
