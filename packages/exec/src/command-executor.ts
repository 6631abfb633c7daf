import { type ChildProcess, spawn } from "node:child_process";
import { hostname } from "node:os";
import type {
  AgentProcess,
  ExecuteOptions,
  ExecutionRequest,
  ExecutionResult,
  Executor,
  SurvivorReport,
} from "@loop/core";
import { AGENT_TOKEN_VARIABLE, newAgentToken, stopAgentSurvivors } from "./agent-survivors.js";
import {
  type CommandExecutorOptions,
  checkCommandExecutorOptions,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_TAIL_BYTES,
} from "./command-executor-options.js";
import type { CommandLine } from "./command-line.js";
import type { CommandRun } from "./command-run.js";
import { type NextProcess, startNextProcess, takeNextProcess } from "./next-process.js";
import { OutputStream } from "./output-stream.js";
import {
  awaitGroupEnd,
  holdProcessGroup,
  processGroupAlive,
  signalProcessGroup,
} from "./process-group.js";
import { processStartOf } from "./process-table.js";
import { rawOutput } from "./raw-output.js";
import { inheritedEnvironment } from "./removed-env-variables.js";
import type { WaitingProcess } from "./waiting-process.js";

/** What `#run` needs for one run. */
interface RunArguments {
  readonly prompt: string;
  readonly signal: AbortSignal | undefined;
  readonly agent: AgentProcess;
  readonly recordProcess: ExecuteOptions["recordProcess"];
  readonly cwd: string | undefined;
  /** The agent's environment before its token is added. */
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly started?: (() => void) | undefined;
  /** The process started ahead for this run, once it has its go. */
  readonly held: ChildProcess | null;
}

/** Why a run was stopped before the agent finished. */
type StopReason = "aborted" | "timed-out" | "idle";

/** The result of a run that never started because the engine's signal had fired. */
const ABORTED: ExecutionResult = { output: "", success: false, error: "aborted" };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The default {@link CommandExecutorOptions.parse}: the stdout tail is the output, exit code 0 is
 * success.
 *
 * @param run - the finished run.
 * @returns the result.
 */
export function defaultParse(run: CommandRun): ExecutionResult {
  const success = run.exitCode === 0;
  return {
    output: run.stdout,
    success,
    error: success ? undefined : describeExit(run),
  };
}

/**
 * How a finished run's process ended, in a few words: `exited with code 1`, `killed by SIGTERM`.
 *
 * @param run - the finished run.
 */
export function describeProcessEnd(run: Pick<CommandRun, "exitCode" | "signal">): string {
  return run.signal === null ? `exited with code ${run.exitCode}` : `killed by ${run.signal}`;
}

function describeExit(run: CommandRun): string {
  const stderrTail = run.stderr.trim().split("\n").slice(-3).join("\n");
  const how = describeProcessEnd(run);
  return stderrTail === "" ? how : `${how}: ${stderrTail}`;
}

/**
 * Runs any agent CLI as a child process: one process per iteration, never through a shell (the
 * prompt reaches the agent as data, whatever it contains).
 *
 * The child leads its own process group; on the engine's signal, `timeoutMs` or `idleTimeoutMs`
 * the whole group gets SIGTERM, then SIGKILL after `killGraceMs`, and the run resolves with
 * `success: false` and an `error` saying why. Descendants left running when the agent exits get
 * the same. Either way `execute` resolves only once no process of the group runs (or
 * `killGraceMs` plus 2 s after SIGTERM, if one cannot be killed), so a loop that exits after it
 * leaves none behind. The agent's environment holds {@link AGENT_TOKEN_VARIABLE}, and the
 * process is described to the engine's `recordProcess` before and after it starts, so a later
 * run can stop it with {@link CommandExecutor.stopSurvivors} if this one is killed. Output is decoded as UTF-8, streamed line by line
 * to `onLine`, and kept as a bounded tail (`tailBytes` per stream). The result's `raw` is those
 * tails, stdout then stderr, marked where their start was cut (unless `parse` sets its own).
 *
 * @example
 * ```ts
 * const executor = new CommandExecutor({ command: "my-agent", args: ["--quiet"], timeoutMs: 600_000 });
 * const result = await runLoop({ plan, executor, store });
 * ```
 */
export class CommandExecutor implements Executor {
  /** The name for logs: the `name` option, or the command. */
  readonly name: string;
  /** The version of the `Executor` interface this class implements. */
  readonly specificationVersion = "v1" as const;
  readonly #options: CommandExecutorOptions;
  /** The next run's process, started ahead as the last run ended (`startAhead`). */
  #next: NextProcess | null = null;

  /**
   * @param options - the command and how to run it; checked before anything else.
   * @throws {TypeError} when an option is missing or invalid.
   */
  constructor(options: CommandExecutorOptions) {
    this.#options = checkCommandExecutorOptions(options);
    this.name = this.#options.name ?? this.#options.command;
  }

  /** The checked options this executor runs with (read-only). */
  get options(): CommandExecutorOptions {
    return this.#options;
  }

  /**
   * Runs the command once with `request.prompt`.
   *
   * @param request - what to do: its `prompt`, and its `workspace` (the working directory) when it has one.
   * @param options - the engine's `signal`.
   * @returns the parsed result; never throws for a failed or stopped run (only `parse` may throw).
   */
  async execute(request: ExecutionRequest, options: ExecuteOptions): Promise<ExecutionResult> {
    const signal = options?.signal;
    if (signal?.aborted) return ABORTED;
    // In a parallel run the engine measures the task's working copy itself: the probe measures
    // this executor's own directories, where the agent does not run.
    const progress = request.workspace === undefined ? this.#options.progress : undefined;
    // The plan is the one file of the project the loop itself writes between runs.
    const rewritten = request.plan?.path ? [request.plan.path] : [];
    const cwd = request.workspace?.path ?? this.#options.cwd;
    const environment = this.#environment();
    const next = takeNextProcess(this.#next, cwd, environment);
    this.#next = null;
    // A process started ahead is recorded once, with its group: it runs nothing before its go.
    const agent: AgentProcess = {
      token: next?.token ?? newAgentToken(),
      command: this.#options.command,
      host: hostname(),
      ...(next === null ? {} : { pgid: next.pid, processStart: next.processStart }),
    };
    const recordProcess = options?.recordProcess;
    // The baseline and the record are both taken before the process starts, each independent
    // of the other: a git run and a durable state write overlap instead of adding up.
    const [snapshot, recorded] = await Promise.all([
      progress?.before({ rewritten }),
      recordProcess?.(agent).then(
        () => null,
        (error: unknown) => ({ error }),
      ),
    ]);
    if (recorded) {
      next?.waiting.discard();
      const reason = messageOf(recorded.error);
      return { output: "", success: false, error: `the agent was not started: ${reason}` };
    }
    if (signal?.aborted) {
      next?.waiting.discard();
      return ABORTED;
    }
    // One that ended as it waited (killed) is replaced by a process started now.
    const taken = next === null ? { held: null } : await this.#take(next.waiting, signal);
    if (!("held" in taken)) return taken;
    const { held } = taken;
    // Once the agent runs, the probe may get its comparison ready (git started, waiting).
    const started =
      progress?.running === undefined || snapshot === undefined
        ? undefined
        : () => progress.running?.(snapshot);
    const run = {
      prompt: request.prompt,
      signal,
      agent,
      recordProcess,
      cwd,
      environment,
      started,
      held,
    };
    const { result, ran } = await this.#run(run);
    // The next run's process starts once this one's is over (it started, so the command runs
    // here), in a workspace of its own never (a parallel run's next task has another).
    const ahead = ran && !signal?.aborted && request.workspace === undefined;
    if (progress === undefined || snapshot === undefined) {
      if (ahead) this.#startNext(cwd, environment);
      return result;
    }
    const measuring = progress.after(snapshot);
    // Started once the probe's git has its go (a few microtasks into `after`): the start then
    // blocks this process while git works, not before it.
    const startingNext = ahead
      ? new Promise<void>((resolve) =>
          setImmediate(() => {
            this.#startNext(cwd, environment);
            resolve();
          }),
        )
      : undefined;
    const [measured] = await Promise.all([measuring, startingNext]);
    return { ...result, filesChanged: result.filesChanged ?? measured.filesChanged };
  }

  /**
   * Ends the process started ahead for a next run, if one waits (see
   * {@link CommandExecutorOptions.startAhead}); the engine calls it as a loop ends. The next
   * run, if any, starts its process when it comes.
   */
  release(): void {
    this.#next?.waiting.discard();
    this.#next = null;
  }

  /** The agent's environment before its token is added. */
  #environment(): Readonly<Record<string, string | undefined>> {
    return this.#options.env ?? inheritedEnvironment(process.env);
  }

  #startNext(cwd: string | undefined, environment: Readonly<Record<string, string | undefined>>) {
    const options = this.#options;
    if (options.startAhead === false || (options.promptVia ?? "stdin") !== "stdin") return;
    this.#next?.waiting.discard();
    this.#next = startNextProcess({
      command: options.command,
      args: options.args ?? [],
      cwd,
      environment,
    });
  }

  /**
   * The process `execute` starts for a request — the command, its arguments and what goes on
   * standard input — without starting it (what `loop run --dry-run` prints).
   *
   * @param request - the request; only `prompt` is used.
   */
  commandLine(request: Pick<ExecutionRequest, "prompt">): CommandLine {
    const viaStdin = (this.#options.promptVia ?? "stdin") === "stdin";
    return {
      command: this.#options.command,
      args: [...this.#argv(request.prompt)],
      stdin: viaStdin ? request.prompt : null,
    };
  }

  #argv(prompt: string): readonly string[] {
    const args = this.#options.args ?? [];
    if ((this.#options.promptVia ?? "stdin") === "stdin") return args;
    return this.#options.promptArgument?.(prompt, args) ?? [...args, prompt];
  }

  /**
   * Stops what is left of an agent a previous run started with a `CommandExecutor` (or an
   * executor built on one) and never saw end: see {@link stopAgentSurvivors}. The grace period
   * is `killGraceMs`.
   *
   * @param agent - the agent process as the loop's state recorded it.
   */
  stopSurvivors(agent: AgentProcess): Promise<SurvivorReport> {
    return stopAgentSurvivors(agent, { graceMs: this.#options.killGraceMs });
  }

  #run({
    prompt,
    signal,
    agent,
    recordProcess,
    cwd,
    environment,
    started,
    held,
  }: RunArguments): Promise<{ result: ExecutionResult; ran: boolean }> {
    const options = this.#options;
    const viaStdin = (options.promptVia ?? "stdin") === "stdin";
    const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    const tailBytes = options.tailBytes ?? DEFAULT_TAIL_BYTES;
    const stdout = new OutputStream("stdout", tailBytes, options.onLine);
    const stderr = new OutputStream("stderr", tailBytes, options.onLine);

    return new Promise<{ result: ExecutionResult; ran: boolean }>((resolveRun, reject) => {
      let ran = false;
      const resolve = (result: ExecutionResult) => resolveRun({ result, ran });
      const child =
        held ??
        spawn(options.command, [...this.#argv(prompt)], {
          shell: false,
          detached: true,
          cwd,
          env: { ...environment, [AGENT_TOKEN_VARIABLE]: agent.token },
          stdio: [viaStdin ? "pipe" : "ignore", "pipe", "pipe"],
        });
      let stopReason: StopReason | undefined;
      let exitCode: number | null = null;
      let exitSignal: NodeJS.Signals | null = null;
      let settled = false;
      const timers = new Set<NodeJS.Timeout>();
      let idleTimer: NodeJS.Timeout | undefined;
      /** When SIGKILL is due (SIGTERM sent), and its timer; unset until the group is signalled. */
      let killAt: number | undefined;
      let killTimer: NodeJS.Timeout | undefined;
      const pid = child.pid;
      const release = pid === undefined ? () => undefined : holdProcessGroup(pid);

      const clearTimers = () => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        if (idleTimer !== undefined) clearTimeout(idleTimer);
      };
      const onAbort = () => stop("aborted");
      const cleanUp = () => {
        clearTimers();
        signal?.removeEventListener("abort", onAbort);
      };
      /** Ends the whole group: SIGTERM now, SIGKILL after the grace period. */
      const killGroup = () => {
        if (pid === undefined || killAt !== undefined) return;
        signalProcessGroup(pid, "SIGTERM");
        killAt = Date.now() + killGraceMs;
        // An agent that ignores SIGTERM and keeps its output open is ended before "close".
        killTimer = setTimeout(() => signalProcessGroup(pid, "SIGKILL"), killGraceMs);
      };
      /**
       * Waits until no process of the group runs: a descendant that ignores SIGTERM gets SIGKILL
       * at the end of the grace period, and the run resolves only then.
       */
      const groupEnd = async () => {
        if (pid === undefined) return;
        try {
          if (!processGroupAlive(pid)) return;
          killGroup();
          await awaitGroupEnd(pid, killAt ?? Date.now());
        } finally {
          // Once the group is gone its id may be given to another: no SIGKILL goes to it later.
          if (killTimer !== undefined) clearTimeout(killTimer);
          release();
        }
      };
      const stop = (reason: StopReason) => {
        if (stopReason !== undefined || settled) return;
        stopReason = reason;
        clearTimers();
        killGroup();
      };
      const resetIdle = () => {
        if (options.idleTimeoutMs === undefined || stopReason !== undefined) return;
        if (idleTimer !== undefined) clearTimeout(idleTimer);
        idleTimer = setTimeout(() => stop("idle"), options.idleTimeoutMs);
      };

      child.on("error", (error: NodeJS.ErrnoException) => {
        if (settled) return;
        settled = true;
        cleanUp();
        release();
        resolve({
          output: "",
          success: false,
          error: `could not start \`${options.command}\`: ${error.code ?? error.message}`,
        });
      });
      child.stdout?.on("data", (chunk: Buffer) => {
        resetIdle();
        stdout.write(chunk);
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        resetIdle();
        stderr.write(chunk);
      });
      child.on("exit", (code, exitedSignal) => {
        exitCode = code;
        exitSignal = exitedSignal;
        // Descendants left behind (holding our pipes or not) are ended: no orphans.
        if (stopReason === undefined) killGroup();
      });
      child.on("close", () => {
        if (settled) return;
        settled = true;
        cleanUp();
        stdout.end();
        stderr.end();
        void groupEnd().then(() => finish(), finish);
      });
      const finish = () => {
        const run: CommandRun = {
          stdout: stdout.text,
          stderr: stderr.text,
          exitCode,
          signal: exitSignal,
          timedOut: stopReason === "timed-out",
          idle: stopReason === "idle",
          aborted: stopReason === "aborted",
        };
        try {
          const parsed = (options.parse ?? defaultParse)(run);
          const result = { ...parsed, raw: parsed.raw ?? rawOutput(stdout, stderr) };
          resolve(
            stopReason === undefined
              ? result
              : { ...result, success: false, error: this.#describeStop(stopReason) },
          );
        } catch (error) {
          reject(error);
        }
      };

      if (pid === undefined) return; // spawn failed: "error" follows.
      ran = true;
      // Saved by the engine before the next step; a failure to save is the engine's to report.
      // A process started ahead was recorded with its group before its go.
      if (agent.pgid !== pid) {
        recordProcess?.({ ...agent, pgid: pid, processStart: processStartOf(pid) }).catch(
          () => undefined,
        );
      }
      // After the record's write has begun: what `started` does waits on the agent anyway.
      if (started !== undefined) setImmediate(started);
      signal?.addEventListener("abort", onAbort, { once: true });
      if (signal?.aborted) stop("aborted");
      if (options.timeoutMs !== undefined) {
        timers.add(setTimeout(() => stop("timed-out"), options.timeoutMs));
      }
      resetIdle();
      if (viaStdin && child.stdin !== null) {
        child.stdin.on("error", () => {
          // EPIPE: the agent exited or closed stdin without reading the prompt.
        });
        child.stdin.end(prompt);
      }
    });
  }

  /**
   * Gives the held shell its go and waits for it to confirm, within `timeoutMs`: a shell that
   * never takes it (stopped) is killed, and the run ends as timed out (or aborted), never hangs.
   */
  async #take(
    waiting: WaitingProcess,
    signal: AbortSignal | undefined,
  ): Promise<{ readonly held: ChildProcess | null } | ExecutionResult> {
    const { timeoutMs } = this.#options;
    const timeout = timeoutMs === undefined ? null : new AbortController();
    const timer = timeout === null ? null : setTimeout(() => timeout.abort(), timeoutMs);
    const signals = [signal, timeout?.signal].filter((each) => each !== undefined);
    try {
      const held = await waiting.go(signals.length > 1 ? AbortSignal.any(signals) : signals[0]);
      if (held !== null) return { held };
      if (signal?.aborted) return ABORTED;
      if (timeout?.signal.aborted) {
        return { output: "", success: false, error: this.#describeStop("timed-out") };
      }
      return { held };
    } finally {
      if (timer !== null) clearTimeout(timer);
    }
  }

  #describeStop(reason: StopReason): string {
    if (reason === "aborted") return "aborted";
    if (reason === "timed-out") return `timed out after ${this.#options.timeoutMs} ms`;
    return `no output for ${this.#options.idleTimeoutMs} ms`;
  }
}
