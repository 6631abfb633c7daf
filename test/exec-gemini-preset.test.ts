import type { ExecutionResult } from "@loop/core";
import { type CommandExecutor, type CommandRun, geminiExecutor } from "@loop/exec";
import { describe, expect, it } from "vitest";
import { executionRequest } from "./support/execution-request.js";
import { fakeAgent, fakeAgentArgv, finishedRun } from "./support/fake-agent.js";

// The Gemini CLI preset without the real CLI: its argv, where the prompt goes, and how it reads a
// finished run. The stderr samples are what Gemini CLI 0.61.0 printed (test/agents/gemini.test.ts
// runs the real CLI).

const frontMatter = '---\ntitle: plan\n---\n-x $(rm -rf ~) `reboot` "; exit 1\n';

function fakeGemini(mode: string, options: Parameters<typeof geminiExecutor>[0] = {}) {
  return geminiExecutor({ ...options, ...fakeAgent(mode) });
}

const execute = (executor: CommandExecutor, prompt: string) =>
  executor.execute(executionRequest({ prompt }), { signal: new AbortController().signal });

function parse(
  run: Partial<CommandRun>,
  approvalMode?: "default" | "auto_edit" | "yolo",
): ExecutionResult {
  const parseRun = geminiExecutor({ approvalMode }).options.parse;
  if (parseRun === undefined) throw new Error("geminiExecutor has no parse");
  return parseRun(finishedRun(run));
}

describe("geminiExecutor argv", () => {
  it("runs `gemini --approval-mode yolo --skip-trust` with the prompt on stdin by default", async () => {
    const executor = geminiExecutor();
    expect(executor.name).toBe("gemini");
    expect(executor.commandLine(executionRequest({ prompt: frontMatter }))).toEqual({
      command: "gemini",
      args: ["--approval-mode", "yolo", "--skip-trust"],
      stdin: frontMatter,
    });
    const argv = await fakeAgentArgv(fakeGemini("echo-args"), frontMatter);
    expect(argv).toEqual(["--approval-mode", "yolo", "--skip-trust"]);
  });

  it("delivers a prompt starting with --- or - verbatim on stdin, never as an argument", async () => {
    for (const prompt of [frontMatter, "-x", "--yolo", "--prompt=oops"]) {
      expect((await execute(fakeGemini("echo-stdin"), prompt)).output).toBe(prompt);
    }
  });

  it("takes the approval mode, the folder trust and extra arguments after the preset's flags", () => {
    expect(geminiExecutor({ approvalMode: "auto_edit" }).options.args).toEqual([
      "--approval-mode",
      "auto_edit",
      "--skip-trust",
    ]);
    expect(
      geminiExecutor({ approvalMode: "default", trustWorkspace: false, extraArgs: ["-m", "x"] })
        .options.args,
    ).toEqual(["--approval-mode", "default", "-m", "x"]);
    expect(geminiExecutor({ command: "/opt/gemini" }).options.command).toBe("/opt/gemini");
  });

  it("leaves its --approval-mode out when the extra arguments choose one (gemini refuses two)", () => {
    for (const chosen of [["--approval-mode", "auto_edit"], ["--approval-mode=plan"], ["-y"]]) {
      expect(geminiExecutor({ extraArgs: chosen }).options.args).toEqual([
        "--skip-trust",
        ...chosen,
      ]);
    }
    const parseRun = geminiExecutor({ extraArgs: ["--approval-mode", "auto_edit"] }).options.parse;
    const result = parseRun?.(
      finishedRun({
        stderr: 'Error executing tool run_shell_command: Tool "run_shell_command" not found.',
      }),
    );
    expect(result?.error).toContain('approval mode "auto_edit"');
  });

  it("refuses an approval mode the preset does not know", () => {
    const plan = "plan" as unknown as "yolo";
    expect(() => geminiExecutor({ approvalMode: plan })).toThrow(
      new TypeError(
        'geminiExecutor: option `approvalMode` must be "default", "auto_edit" or "yolo", got "plan"',
      ),
    );
  });

  it("keeps a parse the caller gives", () => {
    const custom = () => ({ output: "mine", success: true });
    expect(geminiExecutor({ parse: custom }).options.parse).toBe(custom);
  });
});

describe("geminiExecutor reads a finished run", () => {
  it("a clean exit: the stdout is the output", () => {
    expect(parse({ stdout: "Done.\n", stderr: "YOLO mode is enabled.\n" })).toEqual({
      output: "Done.\n",
      success: true,
      error: undefined,
    });
  });

  it("exit 55 says the folder is not trusted and what to do", () => {
    const result = parse({
      exitCode: 55,
      stderr:
        "\u001b[31mGemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, set the `GEMINI_CLI_TRUST_WORKSPACE=true` environment variable, or trust this directory in interactive mode. For more details, see https://geminicli.com/docs/cli/trusted-folders/#headless-and-automated-environments\u001b[0m\n",
    });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^gemini does not trust the working folder/);
    expect(result.error).toContain("trustWorkspace: true");
    expect(result.error).toContain("GEMINI_CLI_TRUST_WORKSPACE=true");
    expect(result.error).toContain(
      "gemini said: Gemini CLI is not running in a trusted directory.",
    );
    expect(result.error).not.toContain("\u001b");
  });

  it("a tool the approval mode left out fails the run, though gemini exits 0", () => {
    const write = parse(
      {
        stdout: "I wrote the file.\n",
        stderr:
          'Error executing tool write_file: Tool "write_file" not found. Did you mean one of: "read_file", "update_topic", "grep_search"?\n',
      },
      "default",
    );
    expect(write).toMatchObject({ success: false, output: "I wrote the file.\n" });
    expect(write.error).toContain('approval mode "default"');
    expect(write.error).toContain('Tool "write_file" not found');
    expect(write.error).toContain('Use approvalMode "auto_edit" (file edits) or "yolo"');

    const shell = parse(
      {
        stderr:
          'Error executing tool run_shell_command: Tool "run_shell_command" not found. Did you mean one of: "update_topic", "grep_search", "replace"?\n',
      },
      "auto_edit",
    );
    expect(shell.success).toBe(false);
    expect(shell.error).toContain('approval mode "auto_edit"');
    expect(shell.error).toMatch(/Use approvalMode "yolo"\.$/);
  });

  it("a made-up tool name the model recovers from is not a failure", () => {
    const result = parse({
      stdout: "Done.\n",
      stderr:
        'Error executing tool edit_file: Tool "edit_file" not found. Did you mean one of: "replace"?\n',
    });
    expect(result.success).toBe(true);
  });

  it("a Gemini API error gives its status and message", () => {
    const result = parse({
      exitCode: 1,
      stderr: [
        "YOLO mode is enabled. All tool calls will be automatically approved.",
        'Error when talking to Gemini API Full report available at: /tmp/gemini-client-error-Turn.run-sendMessageStream-2026-12-01T11-27-33-939Z.json _ApiError: {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}',
        "    at throwErrorIfNotOK (file:///gemini/bundle/chunk-JDPZ4CE3.js:267833:24)",
        "  status: 400",
        "}",
        "An unexpected critical error occurred:[object Object]",
        "",
      ].join("\n"),
    });
    expect(result).toEqual({
      output: "",
      success: false,
      error:
        "gemini: the Gemini API refused the request: 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key.",
    });
  });

  it("a quota error gives the status, the error's kind and the message", () => {
    const message =
      "You exceeded your current quota, please check your plan and billing details. Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro";
    const result = parse({
      exitCode: 1,
      stderr: [
        `Error when talking to Gemini API Full report available at: /tmp/report.json TerminalQuotaError: ${message}`,
        "  cause: {",
        "    code: 429,",
        `    message: '${message}',`,
        "    details: []",
        "  },",
        "  retryDelayMs: undefined,",
        "  reason: undefined,",
        "  status: 429",
        "}",
        "An unexpected critical error occurred:[object Object]",
      ].join("\n"),
    });
    expect(result.error).toBe(
      `gemini: the Gemini API refused the request: 429 (TerminalQuotaError): ${message}`,
    );
  });

  it("another failure names the exit code and the last lines that say something", () => {
    const result = parse({
      exitCode: 41,
      stderr: "Warning: 256-color support not detected.\nInvalid auth method selected.\n",
    });
    expect(result.error).toBe(
      "gemini exited with code 41 (authentication error): Invalid auth method selected.",
    );
    expect(parse({ exitCode: null, signal: "SIGKILL" }).error).toBe("gemini killed by SIGKILL");
  });
});
