import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import type { AgentProcess } from "@loop/core";
import { AGENT_TOKEN_VARIABLE, CommandExecutor, stopAgentSurvivors } from "@loop/exec";
import { afterEach, describe, expect, it } from "vitest";
import { executionRequest } from "./support/execution-request.js";
import { FAKE_AGENT } from "./support/fake-agent.js";
import { statFields } from "./support/proc-stat.js";

// stopAgentSurvivors: what the next run does about an agent a killed loop left running. Real
// processes, read from Linux's /proc as the code reads them: a survivor is stopped only when it
// is proven the recorded agent's (its token, or its group's leader with the start time
// recorded), never a process that merely has a recorded pid.

const onLinux = process.platform === "linux";
const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) {
    if (child.pid === undefined) continue;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Gone already: the test stopped it.
    }
  }
});

/** Whether `pid` still runs (a zombie waiting to be reaped does not). */
function isRunning(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== "Z" && state !== "X";
}

/** `linux:<boot id>:<start ticks>` of `pid`, as an executor records it. */
function processStart(pid: number): string {
  const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  return `linux:${boot}:${statFields(pid)?.[19]}`;
}

const IDLE = "console.log(process.pid); setInterval(() => {}, 1e9)";
const IGNORES_TERM = `process.on('SIGTERM', () => {}); ${IDLE}`;
/** Starts a child in its own group (as the process group's only process) that ignores SIGTERM. */
const WITH_STUBBORN_CHILD = `
const { spawn } = require("node:child_process");
const child = spawn(process.execPath, ["-e", ${JSON.stringify(IGNORES_TERM)}], {
  stdio: ["ignore", "pipe", "ignore"], env: { PATH: process.env.PATH },
});
child.stdout.once("data", (pid) => { console.log(process.pid + " " + String(pid).trim()); });
setInterval(() => {}, 1e9);
`;

/**
 * Starts `node -e script` in a process group of its own, as a loop starts an agent, and waits
 * for its first line (the pids it prints once it runs).
 */
async function startDetached(script: string, env: Record<string, string> = {}): Promise<number[]> {
  const child = spawn(process.execPath, ["-e", script], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  started.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").once("data", resolve);
    child.once("error", reject);
  });
  child.stdout?.destroy();
  return line.trim().split(" ").map(Number);
}

const agentOf = (fields: Partial<AgentProcess>): AgentProcess => ({
  token: "0123456789abcdef0123456789abcdef",
  command: "my-agent",
  host: hostname(),
  ...fields,
});

describe.runIf(onLinux)("stopAgentSurvivors", { timeout: 20_000 }, () => {
  it("stops a process that carries the agent's token, though its group was never recorded", async () => {
    const agent = agentOf({});
    const [pid = 0] = await startDetached(IDLE, { [AGENT_TOKEN_VARIABLE]: agent.token });
    const report = await stopAgentSurvivors(agent, { graceMs: 300 });
    expect(report).toEqual({ pids: [pid], signal: "SIGTERM", stopped: true });
    expect(isRunning(pid)).toBe(false);
  });

  it("stops the recorded group, its leader proven by its start time: a member without the token too, with SIGKILL when it ignores SIGTERM", async () => {
    const [leader = 0, member = 0] = await startDetached(WITH_STUBBORN_CHILD);
    const agent = agentOf({ pgid: leader, processStart: processStart(leader) });
    const report = await stopAgentSurvivors(agent, { graceMs: 300 });
    expect(report).toEqual({
      pids: [leader, member].sort((a, b) => a - b),
      signal: "SIGKILL",
      stopped: true,
    });
    expect(isRunning(leader)).toBe(false);
    expect(isRunning(member)).toBe(false);
  });

  it("never signals a process that has the recorded pid but another start time (a pid given again)", async () => {
    const [pid = 0] = await startDetached(IDLE);
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const agent = agentOf({ pgid: pid, processStart: `linux:${boot}:1` });
    expect(await stopAgentSurvivors(agent, { graceMs: 300 })).toEqual({
      pids: [],
      signal: null,
      stopped: true,
    });
    expect(isRunning(pid)).toBe(true);
  });

  it("never signals a process of another boot, nor one with another agent's token", async () => {
    const [pid = 0] = await startDetached(IDLE, { [AGENT_TOKEN_VARIABLE]: "another-token" });
    const ticks = statFields(pid)?.[19];
    const agent = agentOf({ pgid: pid, processStart: `linux:another-boot:${ticks}` });
    expect((await stopAgentSurvivors(agent, { graceMs: 300 })).pids).toEqual([]);
    expect(isRunning(pid)).toBe(true);
  });

  it("looks for an agent recorded on another host nowhere", async () => {
    const agent = agentOf({ host: `not-${hostname()}` });
    const [pid = 0] = await startDetached(IDLE, { [AGENT_TOKEN_VARIABLE]: agent.token });
    expect((await stopAgentSurvivors(agent, { graceMs: 300 })).pids).toEqual([]);
    expect(isRunning(pid)).toBe(true);
  });

  it("CommandExecutor.stopSurvivors stops an agent from the record another executor's run made", async () => {
    const records: AgentProcess[] = [];
    const first = new CommandExecutor({
      command: FAKE_AGENT,
      env: { ...process.env, FAKE_AGENT_MODE: "hang" },
      killGraceMs: 300,
    });
    let printed: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      printed = resolve;
    });
    const agentRun = new CommandExecutor({ ...first.options, onLine: () => printed() }).execute(
      executionRequest(),
      {
        signal: new AbortController().signal,
        recordProcess: async (agent) => {
          records.push(agent);
        },
      },
    );
    await running;
    const recorded = records.at(-1) as AgentProcess;
    const report = await first.stopSurvivors(recorded);
    expect(report).toEqual({ pids: [recorded.pgid], signal: "SIGTERM", stopped: true });
    expect(await agentRun).toMatchObject({ success: false, error: "killed by SIGTERM" });
  });
});
