import { describe, expect, it } from "vitest";
import { buildClaudeArgs } from "./build-claude-args.js";

describe("buildClaudeArgs", () => {
  it("builds the minimal call", () => {
    expect(buildClaudeArgs({}, { prompt: "Fix the bug", sessionId: "s1" })).toEqual([
      "-p",
      "Fix the bug",
      "--output-format",
      "stream-json",
      "--verbose",
    ]);
    expect(buildClaudeArgs(undefined, { prompt: "x", sessionId: null })).toEqual([
      "-p",
      "x",
      "--output-format",
      "stream-json",
      "--verbose",
    ]);
  });

  it("builds every option in order", () => {
    expect(
      buildClaudeArgs(
        {
          model: "opus",
          allowedTools: ["Bash(git:*)", "Edit"],
          disallowedTools: ["WebFetch"],
          permissionMode: "acceptEdits",
          skipPermissions: true,
          maxTurns: 30,
          appendSystemPrompt: "Follow the plan.",
          continueSession: true,
          extraArgs: ["--add-dir", "../lib"],
        },
        { prompt: "Work on TASK-001", sessionId: "sess-9" },
      ),
    ).toEqual([
      "-p",
      "Work on TASK-001",
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "opus",
      "--allowedTools",
      "Bash(git:*),Edit",
      "--disallowedTools",
      "WebFetch",
      "--permission-mode",
      "acceptEdits",
      "--dangerously-skip-permissions",
      "--max-turns",
      "30",
      "--append-system-prompt",
      "Follow the plan.",
      "--resume",
      "sess-9",
      "--add-dir",
      "../lib",
    ]);
  });

  it("skips permissions only when told so explicitly", () => {
    const request = { prompt: "p", sessionId: null };
    expect(buildClaudeArgs({}, request)).not.toContain("--dangerously-skip-permissions");
    expect(buildClaudeArgs({ skipPermissions: false }, request)).not.toContain(
      "--dangerously-skip-permissions",
    );
    expect(buildClaudeArgs({ permissionMode: "bypassPermissions" }, request)).not.toContain(
      "--dangerously-skip-permissions",
    );
  });

  it("resumes by id only when asked and a session exists, never --continue", () => {
    expect(buildClaudeArgs({ continueSession: true }, { prompt: "p", sessionId: null })).toEqual([
      "-p",
      "p",
      "--output-format",
      "stream-json",
      "--verbose",
    ]);
    expect(buildClaudeArgs({}, { prompt: "p", sessionId: "s" })).not.toContain("--resume");
    const resumed = buildClaudeArgs({ continueSession: true }, { prompt: "p", sessionId: "s" });
    expect(resumed.slice(-2)).toEqual(["--resume", "s"]);
    expect(resumed).not.toContain("--continue");
  });

  it("keeps a hostile prompt one element", () => {
    const prompt = 'x"; rm -rf / #\n$(curl evil) `id` --model evil';
    const args = buildClaudeArgs({}, { prompt, sessionId: null });
    expect(args[1]).toBe(prompt);
    expect(args).toHaveLength(5);
  });

  it("puts a prompt that looks like a flag last, after --", () => {
    const prompt = "--dangerously-skip-permissions";
    expect(buildClaudeArgs({ model: "sonnet" }, { prompt, sessionId: null })).toEqual([
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "sonnet",
      "--",
      prompt,
    ]);
  });
});
