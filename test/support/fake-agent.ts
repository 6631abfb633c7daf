import { fileURLToPath } from "node:url";
import type { CommandExecutor, CommandRun } from "@loop/exec";
import { executionRequest } from "./execution-request.js";

// The stand-in agent of the @loop/exec tests, test/fixtures/fake-agent.mjs: FAKE_AGENT_MODE picks
// what it does (echo its argv, echo its stdin, hang, …; the fixture lists the modes).

/** The fake agent's executable. */
export const FAKE_AGENT = fileURLToPath(new URL("../fixtures/fake-agent.mjs", import.meta.url));

/** A prompt that a shell would turn into commands: it must reach the agent as it is. */
export const HOSTILE_PROMPT = "fix it $(rm -rf ~) `reboot` \"; reboot\n'quoted' * ~ && exit 1";

/**
 * The `command` and `env` options that run the fake agent in `mode`.
 *
 * @param mode - the FAKE_AGENT_MODE, e.g. `"echo-args"`.
 * @param extra - more variables, after this process's environment and the mode.
 */
export function fakeAgent(
  mode: string,
  extra: Readonly<Record<string, string>> = {},
): { command: string; env: Record<string, string | undefined> } {
  return { command: FAKE_AGENT, env: { ...process.env, FAKE_AGENT_MODE: mode, ...extra } };
}

/**
 * Runs `executor` once on `prompt` and returns the argv the program got: `executor` runs the fake
 * agent in mode `echo-args`, which prints it.
 */
export async function fakeAgentArgv(executor: CommandExecutor, prompt: string): Promise<string[]> {
  const result = await executor.execute(executionRequest({ prompt }), {
    signal: new AbortController().signal,
  });
  return JSON.parse(result.output).argv as string[];
}

/**
 * A finished {@link CommandRun}, what a preset's `parse` reads: exit code 0, no output, not
 * killed, timed out or aborted, but for the fields of `run`.
 */
export function finishedRun(run: Partial<CommandRun> = {}): CommandRun {
  return {
    stdout: "",
    stderr: "",
    exitCode: 0,
    signal: null,
    timedOut: false,
    idle: false,
    aborted: false,
    ...run,
  };
}
