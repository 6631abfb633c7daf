import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentProcess } from "@loop/core";
import {
  aiderExecutor,
  ampExecutor,
  CommandExecutor,
  type CommandExecutorOptions,
  type OutputLine,
  REMOVED_ENV_VARIABLES,
} from "@loop/exec";
import { describe, expect, it } from "vitest";
import { executionRequest } from "./support/execution-request.js";
import { FAKE_AGENT, fakeAgent, fakeAgentArgv, HOSTILE_PROMPT } from "./support/fake-agent.js";
import { waitUntil } from "./support/wait-until.js";

function fake(
  mode: string,
  options: Partial<CommandExecutorOptions> = {},
  environment: Record<string, string> = {},
): CommandExecutor {
  const agent = fakeAgent(mode, environment);
  return new CommandExecutor({ command: agent.command, ...options, env: agent.env });
}

const run = (executor: CommandExecutor, prompt = "hello", signal = new AbortController().signal) =>
  executor.execute(executionRequest({ prompt }), { signal });

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `pid` still runs (Linux): it exists and has not ended. An orphan killed a moment ago
 * may wait as a zombie for PID 1 to reap it; it no longer runs.
 */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2)[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

const onLinux = process.platform === "linux";

describe("CommandExecutor options", () => {
  it("checks options before anything runs", () => {
    expect(() => new CommandExecutor({} as never)).toThrow(
      "CommandExecutor: Missing required option `command`",
    );
    expect(() => new CommandExecutor({ command: "x", timeoutMs: -1 })).toThrow("`timeoutMs`");
    // Beyond a host timer's limit the timeout would fire at once: refused with the range.
    expect(() => new CommandExecutor({ command: "x", idleTimeoutMs: 2 ** 31 })).toThrow(
      "a number from 0 to 2147483647 (24.8 days)",
    );
    expect(() => new CommandExecutor({ command: "x", promptVia: "shell" as never })).toThrow(
      "`promptVia`",
    );
    expect(() => new CommandExecutor({ command: "x", args: "a b" as never })).toThrow("`args`");
  });

  it("implements Executor v1 and is named after the command", () => {
    const executor = new CommandExecutor({ command: "my-agent" });
    expect(executor.specificationVersion).toBe("v1");
    expect(executor.name).toBe("my-agent");
  });
});

describe("CommandExecutor prompt passing (never a shell)", () => {
  it("sends the prompt verbatim on stdin", async () => {
    const result = await run(fake("echo-stdin"), HOSTILE_PROMPT);
    expect(result).toMatchObject({ success: true, output: HOSTILE_PROMPT });
  });

  it("sends the prompt verbatim as the last argument", async () => {
    const result = await run(
      fake("echo-args", { promptVia: "argument", args: ["--x"] }),
      HOSTILE_PROMPT,
    );
    expect(JSON.parse(result.output).argv).toEqual(["--x", HOSTILE_PROMPT]);
  });

  it("places the prompt where promptArgument says", async () => {
    const executor = fake("echo-args", {
      promptVia: "argument",
      args: ["a"],
      promptArgument: (prompt, args) => ["--prompt", prompt, ...args],
    });
    const result = await run(executor, HOSTILE_PROMPT);
    expect(JSON.parse(result.output).argv).toEqual(["--prompt", HOSTILE_PROMPT, "a"]);
  });

  it("shows the process it would start, the one execute starts", async () => {
    const executor = fake("echo-args", { promptVia: "argument", args: ["--x"] });
    const line = executor.commandLine({ prompt: HOSTILE_PROMPT });
    expect(line).toEqual({ command: FAKE_AGENT, args: ["--x", HOSTILE_PROMPT], stdin: null });
    const result = await run(executor, HOSTILE_PROMPT);
    expect(JSON.parse(result.output).argv).toEqual(line.args);
    expect(fake("echo-stdin", { args: ["-q"] }).commandLine({ prompt: HOSTILE_PROMPT })).toEqual({
      command: FAKE_AGENT,
      args: ["-q"],
      stdin: HOSTILE_PROMPT,
    });
  });

  it("gives the agent /dev/null as stdin when the prompt is an argument", async () => {
    const result = await run(fake("echo-stdin", { promptVia: "argument" }), "p");
    expect(result).toMatchObject({ success: true, output: "" });
  });

  it("reports a command that cannot start as a failed run", async () => {
    const result = await run(new CommandExecutor({ command: "/nonexistent/agent-binary" }));
    expect(result.success).toBe(false);
    expect(result.error).toContain("ENOENT");
  });
});

describe("CommandExecutor output", () => {
  it("never splits a multi-byte character across chunks", async () => {
    const lines: OutputLine[] = [];
    const result = await run(fake("multibyte-split", { onLine: (line) => lines.push(line) }));
    expect(result.output).toBe("aé\n");
    expect(lines).toEqual([{ stream: "stdout", text: "aé" }]);
  });

  it("streams complete lines of both streams to onLine", async () => {
    const lines: OutputLine[] = [];
    await run(fake("lines", { onLine: (line) => lines.push(line) }));
    expect(lines.filter((line) => line.stream === "stdout").map((line) => line.text)).toEqual([
      "one",
      "two",
      "three",
    ]);
    expect(lines.filter((line) => line.stream === "stderr")).toEqual([
      { stream: "stderr", text: "warn" },
    ]);
  });

  it("keeps only a bounded tail", async () => {
    const result = await run(fake("echo-stdin", { tailBytes: 10 }), "0123456789abcdef");
    expect(result.output).toBe("6789abcdef");
  });

  it("gives the raw output: stdout as printed, then stderr after a line of its own", async () => {
    const result = await run(fake("lines"));
    expect(result.output).toBe("one\ntwo\r\nthree");
    expect(result.raw).toBe("one\ntwo\r\nthree\n--- stderr ---\nwarn\n");
    const quiet = await run(fake("echo-stdin"), "only stdout\n");
    expect(quiet.raw).toBe("only stdout\n");
  });

  it("keeps the end of the raw output within tailBytes and says how much was cut", async () => {
    const result = await run(fake("echo-stdin", { tailBytes: 10 }), "0123456789abcdef");
    expect(result.raw).toBe(
      "[loop: the first 6 bytes of stdout were cut; the last 10 are kept]\n6789abcdef",
    );
  });

  it("counts the tail in bytes of UTF-8 and never keeps half a character", async () => {
    // "é" is 2 bytes, "😀" 4 (a surrogate pair in a JS string): "😀abcdé" is 10 bytes, one more "é" would be 12.
    const result = await run(fake("echo-stdin", { tailBytes: 11 }), "xxxé😀abcdé");
    expect(result.output).toBe("😀abcdé");
    expect(Buffer.byteLength(result.output)).toBe(10);
    const cut = await run(fake("echo-stdin", { tailBytes: 3 }), "😀é");
    expect(cut.output).toBe("é");
  });

  it("maps the exit code to success, and parse can override", async () => {
    const failed = await run(fake("exit-code", {}, { FAKE_AGENT_EXIT_CODE: "3" }));
    expect(failed).toMatchObject({ success: false, output: "bye\n" });
    expect(failed.error).toContain("code 3");
    expect(await run(fake("exit-code", {}, { FAKE_AGENT_EXIT_CODE: "0" }))).toMatchObject({
      success: true,
    });
    const parsed = await run(
      fake(
        "exit-code",
        { parse: (outcome) => ({ output: `${outcome.exitCode}`, success: true }) },
        { FAKE_AGENT_EXIT_CODE: "7" },
      ),
    );
    // The raw output is the executor's, unless parse gives its own.
    expect(parsed).toEqual({ output: "7", success: true, raw: "bye\n" });
    const own = await run(
      fake("exit-code", { parse: () => ({ output: "", success: true, raw: "mine" }) }),
    );
    expect(own.raw).toBe("mine");
  });
});

describe("CommandExecutor environment", () => {
  it("removes CLAUDECODE and CLAUDE_CODE_ENTRYPOINT from the inherited environment", async () => {
    expect(REMOVED_ENV_VARIABLES).toEqual(
      expect.arrayContaining(["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"]),
    );
    const saved = { ...process.env };
    process.env.CLAUDECODE = "1";
    process.env.CLAUDE_CODE_ENTRYPOINT = "cli";
    process.env.FAKE_AGENT_MODE = "echo-args";
    try {
      const executor = new CommandExecutor({ command: FAKE_AGENT });
      const result = await run(executor);
      expect(JSON.parse(result.output).env).toEqual({
        CLAUDECODE: null,
        CLAUDE_CODE_ENTRYPOINT: null,
      });
      expect(process.env.CLAUDECODE).toBe("1");
    } finally {
      for (const name of ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "FAKE_AGENT_MODE"]) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it("runs the agent in the request's workspace, without its own progress probe", async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), "loop-cwd-")));
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), "loop-workspace-")));
    let probed = 0;
    const progress = {
      before: async () => {
        probed += 1;
        return { repositories: [] };
      },
      after: async () => ({ filesChanged: 5, commits: 0 }),
    };
    const executor = fake("echo-args", { cwd: home, progress });
    const serial = await executor.execute(executionRequest(), {
      signal: new AbortController().signal,
    });
    expect(JSON.parse(serial.output).cwd).toBe(home);
    expect([probed, serial.filesChanged]).toEqual([1, 5]);
    const parallel = await executor.execute(
      executionRequest({ workspace: { path: workspace, branch: "loop/TASK-1" } }),
      { signal: new AbortController().signal },
    );
    expect(JSON.parse(parallel.output).cwd).toBe(workspace);
    expect([probed, parallel.filesChanged]).toEqual([1, undefined]);
  });

  it("passes an explicit env as given", async () => {
    const result = await run(fake("echo-args", {}, { CLAUDECODE: "kept" }));
    expect(JSON.parse(result.output).env.CLAUDECODE).toBe("kept");
  });
});

describe("CommandExecutor records its process", () => {
  it("before it starts, then with its group; its environment holds the token", async () => {
    const recorded: AgentProcess[] = [];
    const result = await fake("print-token").execute(executionRequest(), {
      signal: new AbortController().signal,
      recordProcess: async (agent) => {
        recorded.push(agent);
      },
    });
    expect(result.success).toBe(true);
    const [before, after] = recorded;
    expect(recorded).toHaveLength(2);
    expect(before).toEqual({
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      command: FAKE_AGENT,
      host: hostname(),
    });
    expect(after).toMatchObject({ ...before, pgid: expect.any(Number) });
    if (onLinux) expect(after?.processStart).toMatch(/^linux:[0-9a-f-]+:\d+$/);
    expect(result.output).toBe(`${before?.token}\n`);
  });

  it("does not start the agent when the record cannot be saved", async () => {
    const result = await fake("print-token").execute(executionRequest(), {
      signal: new AbortController().signal,
      recordProcess: async () => {
        throw new Error("ENOSPC: no space left on device");
      },
    });
    expect(result).toEqual({
      output: "",
      success: false,
      error: "the agent was not started: ENOSPC: no space left on device",
    });
  });
});

describe("CommandExecutor stopping", () => {
  it("kills the whole process group on abort: no orphaned grandchild", async () => {
    const controller = new AbortController();
    let grandchildPid = 0;
    const executor = fake("spawn-grandchild", {
      onLine: (line) => {
        grandchildPid = Number(line.text);
        controller.abort();
      },
    });
    const started = Date.now();
    const result = await run(executor, "p", controller.signal);
    expect(result).toMatchObject({ success: false, error: "aborted" });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(grandchildPid).toBeGreaterThan(0);
    expect(await waitUntil(() => !isAlive(grandchildPid))).toBe(true);
    expect(() => process.kill(grandchildPid, 0)).toThrow(
      expect.objectContaining({ code: "ESRCH" }),
    );
  });

  it.runIf(onLinux)(
    "resolves on abort only once a grandchild that ignores SIGTERM is gone (SIGKILL after the grace)",
    async () => {
      const controller = new AbortController();
      let grandchildPid = 0;
      const executor = fake("stubborn-grandchild", {
        killGraceMs: 300,
        onLine: (line) => {
          grandchildPid = Number(line.text);
          controller.abort();
        },
      });
      const result = await run(executor, "p", controller.signal);
      expect(result).toMatchObject({ success: false, error: "aborted" });
      expect(grandchildPid).toBeGreaterThan(0);
      expect(isRunning(grandchildPid)).toBe(false);
    },
  );

  it.runIf(onLinux)(
    "resolves only once a grandchild the agent left behind is gone, though it ignores SIGTERM",
    async () => {
      let grandchildPid = 0;
      const executor = new CommandExecutor({
        command: FAKE_AGENT,
        env: { ...process.env, FAKE_AGENT_MODE: "stubborn-grandchild", FAKE_AGENT_THEN: "exit" },
        killGraceMs: 300,
        onLine: (line) => {
          grandchildPid = Number(line.text);
        },
      });
      const result = await run(executor);
      expect(result.success).toBe(true);
      expect(grandchildPid).toBeGreaterThan(0);
      expect(isRunning(grandchildPid)).toBe(false);
    },
  );

  it("does not start when the signal already fired", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await run(fake("hang"), "p", controller.signal)).toMatchObject({
      success: false,
      error: "aborted",
    });
  });

  it("stops at timeoutMs and keeps what the agent printed before", async () => {
    // A shell prints at once (a Node agent's own start-up can pass 300 ms on a loaded 2-core
    // machine), and the margin is wide: the output must be there before the timeout fires.
    const executor = new CommandExecutor({
      command: "/bin/sh",
      args: ["-c", "echo started; exec sleep 60"],
      timeoutMs: 1500,
    });
    const result = await run(executor);
    expect(result).toMatchObject({ success: false, error: "timed out after 1500 ms" });
    expect(result.output).toBe("started\n");
  });

  it("stops after idleTimeoutMs without output", async () => {
    const started = Date.now();
    const result = await run(fake("silent", { idleTimeoutMs: 300 }));
    expect(result).toMatchObject({ success: false, error: "no output for 300 ms" });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("escalates to SIGKILL after killGraceMs when SIGTERM is ignored", async () => {
    const executor = new CommandExecutor({
      command: process.execPath,
      args: [
        "-e",
        "process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1e9)",
      ],
      timeoutMs: 300,
      killGraceMs: 200,
    });
    const started = Date.now();
    const result = await run(executor);
    expect(result).toMatchObject({ success: false, error: "timed out after 300 ms" });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

// The Codex and Gemini presets have their own files: exec-codex-preset.test.ts, exec-gemini-preset.test.ts.
describe("presets build the exact argv", () => {
  const echoArgs = fakeAgent("echo-args");
  const argvOf = (executor: CommandExecutor) => fakeAgentArgv(executor, HOSTILE_PROMPT);

  it("aider --message <prompt> [--yes-always] [--no-auto-commits]", async () => {
    expect(aiderExecutor().options.command).toBe("aider");
    expect(await argvOf(aiderExecutor(echoArgs))).toEqual(["--message", HOSTILE_PROMPT]);
    expect(
      await argvOf(aiderExecutor({ ...echoArgs, yesAlways: true, noAutoCommits: true })),
    ).toEqual(["--message", HOSTILE_PROMPT, "--yes-always", "--no-auto-commits"]);
  });

  it("amp -x with the prompt on stdin", async () => {
    expect(ampExecutor().options).toMatchObject({
      command: "amp",
      args: ["-x"],
      promptVia: "stdin",
    });
    expect(await argvOf(ampExecutor(echoArgs))).toEqual(["-x"]);
    const stdin = ampExecutor(fakeAgent("echo-stdin"));
    expect((await run(stdin, HOSTILE_PROMPT)).output).toBe(HOSTILE_PROMPT);
  });
});
