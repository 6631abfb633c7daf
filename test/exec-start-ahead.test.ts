import { readdirSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { type AgentProcess, type ExecutionRequest, runLoop } from "@loop/core";
import { CommandExecutor, type CommandExecutorOptions } from "@loop/exec";
import { completesTask, MemoryStateStore, memoryPlan } from "@loop/memory";
import { afterEach, describe, expect, it } from "vitest";
import { taskList, withSet } from "./e2e/support.js";
import { executionRequest } from "./support/execution-request.js";
import { HOSTILE_PROMPT } from "./support/fake-agent.js";
import { statFields } from "./support/proc-stat.js";
import { waitUntil } from "./support/wait-until.js";

// `startAhead`: as a run ends, CommandExecutor starts the next run's process, held by /bin/dash
// on a `read` until the next `execute` gives it its go (then dash `exec`s the agent in its
// place). What these tests hold it to: the agent gets the very process a start at run time
// gives it (environment, working directory, signals, descriptors, process group, standard
// input), its record is saved once, and no held process outlives its use.

const onLinux = process.platform === "linux";
const haveDash = onLinux && statFields(1) !== null && exists("/bin/dash");

function exists(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The pids of this process's children that wait for a go (the held shells). */
function waitingShells(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(Number(name));
    // [1] is the parent's pid; a zombie (Z) has ended.
    if (fields === null || Number(fields[1]) !== process.pid || fields[0] === "Z") continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (argv[0] === "/bin/dash" && argv[2]?.startsWith("read -r go")) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

const executors: CommandExecutor[] = [];

function executor(options: CommandExecutorOptions): CommandExecutor {
  const made = new CommandExecutor(options);
  executors.push(made);
  return made;
}

// Each test starts with no held process, and leaves none behind.
afterEach(async () => {
  for (const made of executors.splice(0)) made.release();
  expect(await waitUntil(() => waitingShells().length === 0)).toBe(true);
});

/** One run of `subject`, with the records its process got. */
async function runOnce(
  subject: CommandExecutor,
  request: Partial<ExecutionRequest> = {},
  signal = new AbortController().signal,
) {
  const records: AgentProcess[] = [];
  const result = await subject.execute(executionRequest(request), {
    signal,
    recordProcess: async (agent) => {
      records.push(agent);
    },
  });
  return { result, records };
}

/** `env -0`'s output as sorted `name=value` entries, the agent's own token left out. */
function environmentOf(output: string): string[] {
  return output
    .split("\0")
    .filter((entry) => entry !== "" && !entry.startsWith("LOOP_AGENT_TOKEN="))
    .sort();
}

/** What a process started at run time gets, then one started ahead: the outputs of 2 runs. */
async function directThenAhead(options: CommandExecutorOptions): Promise<[string, string]> {
  const subject = executor(options);
  const first = await runOnce(subject);
  const second = await runOnce(subject);
  expect([first.result.success, second.result.success]).toEqual([true, true]);
  // The first process was started at run time (recorded before it started, then with its
  // group), the second ahead (recorded once, with its group, before its go).
  expect(first.records.map((record) => record.pgid === undefined)).toEqual([true, false]);
  expect(second.records).toHaveLength(1);
  expect(second.records[0]?.pgid).toEqual(expect.any(Number));
  return [first.result.output, second.result.output];
}

describe.skipIf(!haveDash)("CommandExecutor startAhead: the agent's process is the same", () => {
  const base = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/tmp" };
  const awkward = {
    MULTILINE: "two\nlines $HOME `x` 'single' \"double\" \\ end",
    EMPTY: "",
    _: "/usr/bin/leading-underscore",
    SHLVL: "7",
  };

  it("has the same environment, without PWD", async () => {
    const env = { ...base, ...awkward };
    const [direct, ahead] = await directThenAhead({ command: "env", args: ["-0"], env });
    expect(environmentOf(ahead)).toEqual(environmentOf(direct));
    expect(environmentOf(ahead).some((entry) => entry.startsWith("PWD="))).toBe(false);
    expect(environmentOf(ahead)).toContain(`MULTILINE=${awkward.MULTILINE}`);
  });

  it("has the same environment with a PWD that is not its working directory", async () => {
    const env = { ...base, PWD: "/somewhere/else" };
    const [direct, ahead] = await directThenAhead({ command: "env", args: ["-0"], env, cwd: "/" });
    expect(environmentOf(ahead)).toEqual(environmentOf(direct));
    expect(environmentOf(ahead)).toContain("PWD=/somewhere/else");
  });

  it("has the same environment when it inherits this process's", async () => {
    const [direct, ahead] = await directThenAhead({ command: "env", args: ["-0"] });
    expect(environmentOf(ahead)).toEqual(environmentOf(direct));
  });

  it("has the same signal dispositions, descriptors and working directory", async () => {
    const script = "grep '^Sig' /proc/self/status; ls /proc/self/fd | wc -l; pwd";
    const [direct, ahead] = await directThenAhead({
      command: "/bin/sh",
      args: ["-c", script],
      env: base,
      cwd: "/usr",
    });
    expect(ahead).toBe(direct);
    expect(ahead).toMatch(/SigIgn:\t0+\n/);
    expect(ahead.trim().endsWith("/usr")).toBe(true);
  });

  it("leads its process group and session, under the pid its record holds", async () => {
    const subject = executor({ command: "cat", args: ["/proc/self/stat"] });
    await runOnce(subject);
    const { result, records } = await runOnce(subject);
    const fields = result.output.slice(result.output.lastIndexOf(")") + 2).split(" ");
    const pid = Number(result.output.split(" ")[0]);
    // [2] the process group, [3] the session.
    expect([Number(fields[2]), Number(fields[3])]).toEqual([pid, pid]);
    expect(records).toEqual([
      {
        token: expect.stringMatching(/^[0-9a-f]{32}$/),
        command: "cat",
        host: hostname(),
        pgid: pid,
        processStart: expect.stringMatching(/^linux:[0-9a-f-]+:\d+$/),
      },
    ]);
  });

  it("gets the prompt verbatim on standard input, and the token its record holds", async () => {
    const subject = executor({
      command: "/bin/sh",
      args: ["-c", 'cat; printf "%s" "|$LOOP_AGENT_TOKEN"'],
    });
    await runOnce(subject, { prompt: "first" });
    const prompt = `go\n${HOSTILE_PROMPT}\n${"x".repeat(200_000)}`;
    const { result, records } = await runOnce(subject, { prompt });
    expect(result.output).toBe(`${prompt}|${records[0]?.token}`);
  });
});

describe.skipIf(!haveDash)("CommandExecutor startAhead: the held process", () => {
  it("waits once a run is over, and ends at release", async () => {
    const subject = executor({ command: "cat" });
    expect(waitingShells()).toEqual([]);
    await runOnce(subject);
    expect(waitingShells()).toHaveLength(1);
    subject.release();
    expect(await waitUntil(() => waitingShells().length === 0)).toBe(true);
    // The next run starts its process when it comes.
    const { result, records } = await runOnce(subject, { prompt: "again" });
    expect([result.output, records.length]).toEqual(["again", 2]);
  });

  it("killed as it waited, is replaced by a process started at run time", async () => {
    const subject = executor({ command: "cat" });
    await runOnce(subject);
    const [held] = waitingShells();
    expect(held).toEqual(expect.any(Number));
    process.kill(held as number, "SIGKILL");
    expect(await waitUntil(() => !waitingShells().includes(held as number))).toBe(true);
    const { result, records } = await runOnce(subject, { prompt: "still here" });
    expect(result).toMatchObject({ success: true, output: "still here" });
    expect(records).toHaveLength(2);
    expect(records[1]?.pgid).not.toBe(held);
  });

  it("killed just before its run, before this process has seen it end, is replaced as well", async () => {
    const subject = executor({ command: "cat" });
    await runOnce(subject);
    const [held] = waitingShells();
    process.kill(held as number, "SIGKILL");
    // Without a turn of the event loop, this process cannot have reaped it: the executor still
    // takes it for waiting when the run begins.
    const deadline = Date.now() + 5000;
    while (statFields(held as number)?.[0] !== "Z" && Date.now() < deadline) {
      // The kernel's part of a SIGKILL takes microseconds.
    }
    expect(statFields(held as number)?.[0]).toBe("Z");
    const { result, records } = await runOnce(subject, { prompt: "still here" });
    expect(result).toMatchObject({ success: true, output: "still here" });
    expect(records.map((record) => record.pgid === held)).toEqual([true, false]);
  });

  it("killed as its record is saved, after this process has seen it end, is replaced", async () => {
    const subject = executor({ command: "cat" });
    await runOnce(subject);
    const [held] = waitingShells();
    const records: AgentProcess[] = [];
    const result = await subject.execute(executionRequest({ prompt: "recorded twice" }), {
      signal: new AbortController().signal,
      recordProcess: async (agent) => {
        records.push(agent);
        if (records.length > 1) return;
        process.kill(held as number, "SIGKILL");
        // Reaped, and its descriptors' ends seen, before the record is saved.
        await waitUntil(() => statFields(held as number) === null);
        await new Promise((resolve) => setTimeout(resolve, 50));
      },
    });
    expect(result).toMatchObject({ success: true, output: "recorded twice" });
    expect(records.map((record) => record.pgid === held)).toEqual([true, false]);
  });

  it("stopped as it waited, does not hold up an abort: the run ends, and the shell with it", async () => {
    const subject = executor({ command: "cat" });
    await runOnce(subject);
    const [held] = waitingShells();
    process.kill(held as number, "SIGSTOP");
    const controller = new AbortController();
    const running = runOnce(subject, { prompt: "never read" }, controller.signal);
    // The run has given its go, and waits for the shell to take it.
    expect(await waitUntil(() => statFields(held as number)?.[0] === "T")).toBe(true);
    setTimeout(() => controller.abort(), 50);
    const { result } = await running;
    expect(result).toMatchObject({ success: false, error: "aborted" });
    expect(
      await waitUntil(() => [null, "Z"].includes(statFields(held as number)?.[0] ?? null)),
    ).toBe(true);
  });

  it("stopped as it waited, does not hang a run with timeoutMs: it times out, and the shell ends", async () => {
    const subject = executor({ command: "cat", timeoutMs: 1500 });
    await runOnce(subject);
    const [held] = waitingShells();
    process.kill(held as number, "SIGSTOP");
    const { result } = await runOnce(subject, { prompt: "never read" });
    expect(result).toMatchObject({ success: false, error: "timed out after 1500 ms", output: "" });
    expect(
      await waitUntil(() => [null, "Z"].includes(statFields(held as number)?.[0] ?? null)),
    ).toBe(true);
  });

  it("is not used by a run with another environment: it ends, the run starts its own", async () => {
    const variable = "LOOP_START_AHEAD_TEST";
    const subject = executor({ command: "/bin/sh", args: ["-c", `printf "%s" "$${variable}"`] });
    try {
      process.env[variable] = "before";
      expect((await runOnce(subject)).result.output).toBe("before");
      process.env[variable] = "after";
      const { result, records } = await runOnce(subject);
      expect([result.output, records.length]).toEqual(["after", 2]);
    } finally {
      delete process.env[variable];
    }
  });

  it("ends when the next run is refused its record, or aborted as it is recorded", async () => {
    const subject = executor({ command: "cat" });
    await runOnce(subject);
    const refused = await subject.execute(executionRequest(), {
      signal: new AbortController().signal,
      recordProcess: async () => {
        throw new Error("ENOSPC: no space left on device");
      },
    });
    expect(refused.error).toBe("the agent was not started: ENOSPC: no space left on device");
    expect(await waitUntil(() => waitingShells().length === 0)).toBe(true);
    await runOnce(subject);
    const controller = new AbortController();
    const aborted = await subject.execute(executionRequest(), {
      signal: controller.signal,
      recordProcess: async () => controller.abort(),
    });
    expect(aborted).toMatchObject({ success: false, error: "aborted" });
    expect(await waitUntil(() => waitingShells().length === 0)).toBe(true);
  });

  it("stays for the next run when a run is aborted before it begins", async () => {
    const subject = executor({ command: "cat" });
    await runOnce(subject);
    const [held] = waitingShells();
    const aborted = await runOnce(subject, {}, AbortSignal.abort());
    expect([aborted.result.success, aborted.records]).toEqual([false, []]);
    expect(waitingShells()).toEqual([held]);
    const { result, records } = await runOnce(subject, { prompt: "taken" });
    expect([result.output, records.length, records[0]?.pgid]).toEqual(["taken", 1, held]);
  });

  it("is not started with startAhead false, for a prompt passed as an argument, or in a workspace", async () => {
    await runOnce(executor({ command: "cat", startAhead: false }));
    await runOnce(executor({ command: "echo", promptVia: "argument" }));
    await runOnce(executor({ command: "cat" }), {
      workspace: { path: "/tmp", branch: "loop/T-1" },
    });
    expect(waitingShells()).toEqual([]);
  });

  it("is not started after a run whose command could not start", async () => {
    const subject = executor({ command: "/nonexistent/agent-binary" });
    const first = await runOnce(subject);
    expect(first.result.error).toContain("ENOENT");
    expect(waitingShells()).toEqual([]);
    const second = await runOnce(subject);
    expect(second.result.error).toContain("ENOENT");
  });

  it("is checked as an option", () => {
    expect(() => new CommandExecutor({ command: "x", startAhead: "yes" as never })).toThrow(
      "`startAhead`",
    );
  });
});

describe.skipIf(!haveDash)("CommandExecutor startAhead in a loop", () => {
  it("records each later agent once, under its own pid, and leaves no process when the loop ends", async () => {
    const pids: number[] = [];
    const subject = new CommandExecutor({
      command: "/bin/sh",
      args: ["-c", 'echo "$$"; cat > /dev/null'],
      parse: (run) => {
        pids.push(Number(run.stdout.trim()));
        return completesTask({ exitSignal: pids.length === 3 });
      },
    });
    const inner = new MemoryStateStore();
    const records: (number | null)[][] = [];
    const store = withSet(inner, async (terminalId, key, text) => {
      const agent = key === "loop_state" ? JSON.parse(text).agent_process : undefined;
      if (agent !== undefined) {
        const index = agent.iteration - 1;
        records[index] = [...(records[index] ?? []), agent.pgid ?? null];
      }
      await inner.set(terminalId, key, text);
    });
    const result = await runLoop({
      plan: memoryPlan(taskList(3), { path: "plan.md" }),
      executor: subject,
      store,
      terminalId: "term_001",
    });
    expect(result.exitReason).toBe("all_tasks_complete");
    expect(pids.length).toBeGreaterThanOrEqual(3);
    // The first agent: before it starts, then with its group; each later one once, started ahead.
    expect(records[0]).toEqual([null, pids[0]]);
    for (let iteration = 1; iteration < pids.length; iteration += 1) {
      expect(records[iteration]).toEqual([pids[iteration]]);
    }
    // The process held for a run that never came ends with the loop (the engine's release).
    expect(await waitUntil(() => waitingShells().length === 0)).toBe(true);
  });
});
