import type { ExecutionResult } from "@loop/core";
import { type CommandRun, codexExecutor } from "@loop/exec";
import { describe, expect, it } from "vitest";
import { executionRequest } from "./support/execution-request.js";
import { fakeAgent, fakeAgentArgv, finishedRun, HOSTILE_PROMPT } from "./support/fake-agent.js";

// The Codex preset's argv and its reading of Codex's output. The real CLI runs in
// test/agents/codex.test.ts (`pnpm test:agents`); here a fake agent echoes the argv it got, and
// the failure samples are what Codex CLI 0.171.0 printed on stderr.

const echoArgs = fakeAgent("echo-args");
const flags = ["exec", "--sandbox", "workspace-write", "-c", 'approval_policy="never"'];

/** What the preset's parse makes of a finished run (by default: exit code 1, no output). */
function parse(run: Partial<CommandRun>): ExecutionResult {
  const parseRun = codexExecutor().options.parse;
  if (parseRun === undefined) throw new Error("the Codex preset has no parse");
  return parseRun(finishedRun({ exitCode: 1, ...run }));
}

const BANNER = [
  'WARNING: proceeding, even though we could not create PATH aliases: Refusing to create helper binaries under temporary dir "/tmp" (codex_home: AbsolutePathBuf("/tmp/codex-home"))',
  "Reading additional input from stdin...",
  "OpenAI Codex v0.171.0",
  "--------",
  "workdir: /tmp/project",
  "model: gpt-stand-in",
  "provider: stand-in",
  "approval: never",
  "sandbox: workspace-write [workdir, /tmp, $TMPDIR]",
  "--------",
  "user",
  "Create hello.txt",
  "warning: Model metadata for `gpt-stand-in` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.",
];
const UNAUTHORIZED =
  "unexpected status 401 Unauthorized: Incorrect API key provided: sk-stand***., url: http://127.0.0.1:40219/v1/responses";

describe("codexExecutor builds `codex exec` with a writable sandbox and the prompt after --", () => {
  it("passes the prompt as one argument after --, whatever it contains", async () => {
    expect(await fakeAgentArgv(codexExecutor(echoArgs), HOSTILE_PROMPT)).toEqual([
      ...flags,
      "--",
      HOSTILE_PROMPT,
    ]);
    const frontMatter = "---\ntitle: plan\n---\nDo the next task";
    expect(await fakeAgentArgv(codexExecutor(echoArgs), frontMatter)).toEqual([
      ...flags,
      "--",
      frontMatter,
    ]);
    expect(await fakeAgentArgv(codexExecutor(echoArgs), "-x")).toEqual([...flags, "--", "-x"]);
  });

  it("shows the same command line for --dry-run, with stdin closed", () => {
    expect(codexExecutor().commandLine(executionRequest({ prompt: "--help" }))).toEqual({
      command: "codex",
      args: [...flags, "--", "--help"],
      stdin: null,
    });
  });

  it("places extraArgs after its own flags and before --", async () => {
    const executor = codexExecutor({ ...echoArgs, extraArgs: ["--model", "o3", "--json"] });
    expect(await fakeAgentArgv(executor, "go")).toEqual([
      ...flags,
      "--model",
      "o3",
      "--json",
      "--",
      "go",
    ]);
  });

  it("selects the sandbox given, default workspace-write", () => {
    expect(codexExecutor().options).toMatchObject({ command: "codex", args: flags });
    expect(codexExecutor({ sandbox: "read-only" }).options.args).toEqual([
      "exec",
      "--sandbox",
      "read-only",
      "-c",
      'approval_policy="never"',
    ]);
    expect(codexExecutor({ sandbox: "danger-full-access" }).options.args?.slice(0, 3)).toEqual([
      "exec",
      "--sandbox",
      "danger-full-access",
    ]);
    expect(codexExecutor().name).toBe("codex");
  });

  it("maps the deprecated fullAuto to the workspace-write sandbox, never to --full-auto", () => {
    expect(codexExecutor({ fullAuto: true }).options.args).toEqual(flags);
    expect(codexExecutor({ fullAuto: false }).options.args).toEqual(flags);
    expect(codexExecutor({ fullAuto: true, sandbox: "read-only" }).options.args?.[2]).toBe(
      "read-only",
    );
  });

  it("refuses a sandbox Codex does not have", () => {
    const options = { sandbox: "full-auto" } as unknown as Parameters<typeof codexExecutor>[0];
    expect(() => codexExecutor(options)).toThrow(
      new TypeError(
        'codexExecutor: option `sandbox` must be "read-only", "workspace-write" or "danger-full-access", got "full-auto"',
      ),
    );
  });

  it("keeps a parse of the caller's own", () => {
    const own = () => ({ output: "mine", success: true });
    expect(codexExecutor({ parse: own }).options.parse).toBe(own);
  });
});

describe("codexExecutor reports the cause Codex printed", () => {
  it("returns Codex's last message as the output of a successful run", () => {
    const result = parse({
      exitCode: 0,
      stdout: "Wrote hello.txt.\n",
      stderr: [...BANNER, "codex", "Wrote hello.txt.", "tokens used", "220"].join("\n"),
    });
    expect(result).toEqual({ output: "Wrote hello.txt.\n", success: true, error: undefined });
  });

  it("names the API error even when `tokens used` and its count come after it", () => {
    const stderr = [
      ...BANNER,
      "exec",
      "/bin/bash -lc 'echo hi' in /tmp/project",
      " succeeded in 0ms:",
      "hi",
      "",
      `ERROR: ${UNAUTHORIZED}`,
      `ERROR: ${UNAUTHORIZED}`,
      "tokens used",
      "110",
    ].join("\n");
    expect(parse({ stderr })).toMatchObject({
      success: false,
      error: `exited with code 1: ${UNAUTHORIZED}`,
    });
  });

  it("leaves out retry notices and log lines of RUST_LOG", () => {
    const stderr = [
      ...BANNER,
      "ERROR: Reconnecting... 1/5",
      "ERROR: Reconnecting... 2/5",
      `ERROR: ${UNAUTHORIZED}`,
      "2026-12-01T11:26:25.918977Z  INFO session_loop{thread_id=01a2315b}: codex_core::session: turn failed",
      '2026-12-01T11:26:25.921736Z  WARN get_model_info{model="gpt-stand-in"}: codex_models_manager::model_info: Unknown model gpt-stand-in is used.',
      `ERROR: ${UNAUTHORIZED}`,
      "2026-12-01T11:26:25.927652Z  INFO session_loop{thread_id=01a2315b}: codex_core::session::handle: shutdown",
    ].join("\n");
    expect(parse({ stderr }).error).toBe(`exited with code 1: ${UNAUTHORIZED}`);
  });

  it("keeps the last three distinct causes", () => {
    const stderr = ["ERROR: one", "ERROR: two", "ERROR: three", "ERROR: four", "ERROR: four"].join(
      "\n",
    );
    expect(parse({ stderr }).error).toBe("exited with code 1: two\nthree\nfour");
  });

  it("names a rejected argument without clap's usage lines", () => {
    const stderr = [
      BANNER[0],
      "error: unexpected argument '--full-auto' found",
      "",
      "  tip: to pass '--full-auto' as a value, use '-- --full-auto'",
      "",
      "Usage: codex exec [OPTIONS] [PROMPT]",
      "       codex exec [OPTIONS] <COMMAND> [ARGS]",
      "",
      "For more information, try '--help'.",
    ].join("\n");
    expect(parse({ exitCode: 2, stderr }).error).toBe(
      "exited with code 2: unexpected argument '--full-auto' found",
    );
  });

  it("falls back to the last lines that are not noise when Codex printed no error line", () => {
    const stderr = [
      BANNER[0],
      "Reading additional input from stdin...",
      "Not inside a trusted directory and --skip-git-repo-check was not specified.",
    ].join("\n");
    expect(parse({ stderr }).error).toBe(
      "exited with code 1: Not inside a trusted directory and --skip-git-repo-check was not specified.",
    );
  });

  it("says how the process ended when there is nothing else", () => {
    expect(parse({ stderr: `${BANNER[0]}\n` }).error).toBe("exited with code 1");
    expect(parse({ exitCode: null, signal: "SIGKILL" }).error).toBe("killed by SIGKILL");
  });
});
