import type { ExecutionResult } from "@loop/core";
import type { CommandRun } from "./command-run.js";
import type { GitProgress } from "./git-progress.js";
import type { OutputLine } from "./output-stream.js";

/** Options of {@link CommandExecutor}. */
export interface CommandExecutorOptions {
  /** The program to run, looked up on `PATH`. Never run through a shell. */
  readonly command: string;
  /** Arguments before the prompt. Default: none. */
  readonly args?: readonly string[] | undefined;
  /**
   * How the prompt reaches the agent: on standard input (default), or as an argument (standard
   * input is then `/dev/null`).
   */
  readonly promptVia?: "stdin" | "argument" | undefined;
  /**
   * Builds the full argument list when `promptVia` is `"argument"`, given the prompt and `args`.
   * Default: `args` followed by the prompt.
   */
  readonly promptArgument?:
    | ((prompt: string, args: readonly string[]) => readonly string[])
    | undefined;
  /** Working directory of the agent. Default: this process's. */
  readonly cwd?: string | undefined;
  /**
   * The agent's complete environment, to which `LOOP_AGENT_TOKEN` (the marker of the agent's
   * processes, `AGENT_TOKEN_VARIABLE`) is added. Default: `process.env` minus
   * {@link REMOVED_ENV_VARIABLES}.
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Hard cap on one run in milliseconds, on top of the engine's signal. Default: none. */
  readonly timeoutMs?: number | undefined;
  /** Stops the run after this many milliseconds without any output. Default: none. */
  readonly idleTimeoutMs?: number | undefined;
  /** Milliseconds between SIGTERM and SIGKILL of the process group. Default: 5000. */
  readonly killGraceMs?: number | undefined;
  /** Called with every complete output line, as it arrives. */
  readonly onLine?: ((line: OutputLine) => void) | undefined;
  /**
   * How much of each stream to keep for the result (`output`, `raw`, `parse`), in bytes of UTF-8
   * (the end is kept, cut at a character boundary). Default: 1 MiB.
   */
  readonly tailBytes?: number | undefined;
  /**
   * Turns the finished run into a result. Default: `output` is the stdout tail, `success` is exit
   * code 0. When the run was stopped, `success` is forced to `false` and `error` says why.
   */
  readonly parse?: ((run: CommandRun) => ExecutionResult) | undefined;
  /** Measures files changed per run (see {@link gitProgress}); fills `filesChanged`. */
  readonly progress?: GitProgress | undefined;
  /** The executor's name for logs. Default: the command. */
  readonly name?: string | undefined;
  /**
   * Whether the next run's process is started as a run ends, held by a small shell until its
   * go (default `true`): starting a process from Node blocks the event loop for a millisecond
   * or two, paid then while the probe's git runs, and the process's record is saved once, with
   * its process group, before the agent runs. Taken only where the process the agent gets is
   * the same: the prompt on standard input, `/bin/dash` to wait in (its `exec` passes the
   * environment on as given, `PWD` put back), every environment name a shell name, the same
   * working directory and environment when the run comes; otherwise the process is started
   * when the run comes. `false`: always then. The held process ends at `Executor.release`
   * (the engine calls it as a loop ends), when this process exits, or at the next run that
   * cannot take it.
   */
  readonly startAhead?: boolean | undefined;
}

/** Default of {@link CommandExecutorOptions.killGraceMs}. */
export const DEFAULT_KILL_GRACE_MS = 5000;
/** Default of {@link CommandExecutorOptions.tailBytes}: 1 MiB. */
export const DEFAULT_TAIL_BYTES = 1024 * 1024;

/** The longest delay a host timer takes (about 24.8 days). */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

const durationOptions = ["timeoutMs", "idleTimeoutMs", "killGraceMs", "tailBytes"] as const;

/**
 * Checks {@link CommandExecutorOptions} before anything runs.
 *
 * @param options - what the caller passed.
 * @returns the same options, typed.
 * @throws {TypeError} "CommandExecutor: Missing required option `command`", or a message naming
 *   the option that is invalid and what was given.
 */
export function checkCommandExecutorOptions(options: unknown): CommandExecutorOptions {
  const given = (options ?? {}) as Record<string, unknown>;
  if (given.command === undefined || given.command === null) {
    throw new TypeError("CommandExecutor: Missing required option `command`");
  }
  if (typeof given.command !== "string" || given.command === "") {
    throw invalid("command", "a non-empty string", given.command);
  }
  if (
    given.args !== undefined &&
    (!Array.isArray(given.args) || !given.args.every((item) => typeof item === "string"))
  ) {
    throw invalid("args", "an array of strings", given.args);
  }
  if (
    given.promptVia !== undefined &&
    given.promptVia !== "stdin" &&
    given.promptVia !== "argument"
  ) {
    throw invalid("promptVia", '"stdin" or "argument"', given.promptVia);
  }
  for (const name of durationOptions) {
    const value = given[name];
    if (
      value !== undefined &&
      (typeof value !== "number" || !(value >= 0) || !(value <= LONGEST_TIMER_MS))
    ) {
      // A host timer fires at once beyond 2^31 - 1 ms: refuse rather than time out at once.
      throw invalid(name, `a number from 0 to ${LONGEST_TIMER_MS} (24.8 days)`, value);
    }
  }
  if (given.startAhead !== undefined && typeof given.startAhead !== "boolean") {
    throw invalid("startAhead", "a boolean", given.startAhead);
  }
  for (const name of ["promptArgument", "onLine", "parse"] as const) {
    if (given[name] !== undefined && typeof given[name] !== "function") {
      throw invalid(name, "a function", given[name]);
    }
  }
  return given as unknown as CommandExecutorOptions;
}

function invalid(name: string, expected: string, value: unknown): TypeError {
  return new TypeError(
    `CommandExecutor: option \`${name}\` must be ${expected}, got ${describe(value)}`,
  );
}

function describe(value: unknown): string {
  return typeof value === "function" ? "a function" : (JSON.stringify(value) ?? String(value));
}
