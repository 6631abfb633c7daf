import type {
  AgentProcess,
  ExecuteOptions,
  ExecutionRequest,
  ExecutionResult,
  Executor,
  SurvivorReport,
} from "@loop/core";
import {
  CommandExecutor,
  type CommandLine,
  type GitProgress,
  type OutputLine,
  stopAgentSurvivors,
} from "@loop/exec";
import { buildClaudeArgs, type ClaudeArgsOptions } from "./build-claude-args.js";
import type { ClaudeRun } from "./claude-run.js";
import { createClaudeStreamParser } from "./claude-stream-parser.js";
import { resumedSessionIsGone } from "./missing-session.js";
import { toExecutionResult } from "./to-execution-result.js";

/**
 * How much of the end of each stream a run keeps for `raw` (and of stderr for the failure's
 * cause): 4 MiB, as stream-json repeats every tool's output and outgrows a plain agent's answer.
 */
const KEPT_OUTPUT_BYTES = 4 * 1024 * 1024;

/** One event of Claude Code's stream-json output, as parsed from its line. */
export type ClaudeStreamEvent = Readonly<Record<string, unknown>>;

/** Options of {@link ClaudeExecutor}. */
export interface ClaudeExecutorOptions extends ClaudeArgsOptions {
  /** The `claude` program: a path, or a name looked up on `PATH`. Default: `"claude"`. */
  readonly bin?: string | undefined;
  /** Working directory of the agent. Default: this process's. */
  readonly cwd?: string | undefined;
  /** The agent's complete environment. Default: `process.env` minus the Claude Code variables. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Stops a run after this many milliseconds without any output. Default: none. */
  readonly idleTimeoutMs?: number | undefined;
  /** Called with every complete output line (stdout and stderr), as it arrives. */
  readonly onLine?: ((line: OutputLine) => void) | undefined;
  /** Called with every stream-json event (each JSON object line of stdout), for live monitors. */
  readonly onEvent?: ((event: ClaudeStreamEvent) => void) | undefined;
  /**
   * Measures the files each run changed (`gitProgress({ cwd })`), so an iteration that edits
   * code without finishing its task still counts as progress. Default: none.
   */
  readonly progress?: GitProgress | undefined;
}

/** A stdout line as a stream event, or `null` when it is not a JSON object. */
function eventOf(text: string): ClaudeStreamEvent | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as ClaudeStreamEvent)
      : null;
  } catch {
    return null;
  }
}

/**
 * Runs the Claude Code CLI (`claude -p <prompt> --output-format stream-json --verbose`) once per
 * iteration, never through a shell: the prompt is one argument, standard input is `/dev/null`.
 * The stream is parsed line by line as it arrives and turned into the engine's result with
 * {@link toExecutionResult}: cost, session id, permission denials and usage limits included.
 * The result's `raw` is the stream-json as the CLI printed it (the last 4 MiB of it; stderr,
 * if any, after a `--- stderr ---` line), for the per-iteration log.
 * On the engine's signal the whole process group is ended, and `execute` resolves only once it
 * is gone; a `claude` a killed loop left running is stopped by the next run (`stopSurvivors`).
 *
 * @example
 * ```ts
 * const executor = new ClaudeExecutor({ model: "sonnet", permissionMode: "acceptEdits" });
 * const result = await runLoop({ plan, executor, store });
 * ```
 */
export class ClaudeExecutor implements Executor {
  /** The name for logs. */
  readonly name = "claude";
  /** The version of the `Executor` interface this class implements. */
  readonly specificationVersion = "v1" as const;
  readonly #options: ClaudeExecutorOptions;

  /** @param options - how to call the CLI and watch its output. */
  constructor(options: ClaudeExecutorOptions = {}) {
    this.#options = { ...options };
  }

  /**
   * The `claude` process `execute` starts for a request — the executable and every argument —
   * without starting it (what `loop run --dry-run` prints). Standard input is closed.
   *
   * @param request - the request's prompt and the session to resume.
   */
  commandLine(request: Pick<ExecutionRequest, "prompt" | "sessionId">): CommandLine {
    const settings = this.#options;
    return {
      command: settings.bin ?? "claude",
      args: buildClaudeArgs(settings, request),
      stdin: null,
    };
  }

  /**
   * Runs `claude` once for `request`. When the session it resumes is gone ("No conversation
   * found with session ID"), the request runs again at once in a new session, so the loop neither
   * loses the iteration nor keeps resuming a session that no longer exists.
   *
   * @param request - the prompt, and the session to continue with `continueSession`.
   * @param options - the engine's `signal`.
   * @returns the result; never throws for a failed, stopped or unstartable run.
   */
  async execute(request: ExecutionRequest, options: ExecuteOptions): Promise<ExecutionResult> {
    const resumed = this.#options.continueSession === true ? request.sessionId : null;
    const first = await this.#run(request, options);
    if (!resumed || !resumedSessionIsGone(first.run, resumed) || options?.signal?.aborted) {
      return first.result;
    }
    const second = (await this.#run({ ...request, sessionId: null }, options)).result;
    // The log shows both runs: why the session was given up, then the new one.
    const before = first.result.raw ?? "";
    const separator = before === "" || before.endsWith("\n") ? "" : "\n";
    return { ...second, raw: `${before}${separator}${second.raw ?? ""}` };
  }

  /**
   * Stops what is left of a `claude` a previous run started and never saw end (that loop was
   * killed): see `stopAgentSurvivors` of `@loop/exec`.
   *
   * @param agent - the agent process as the loop's state recorded it.
   */
  stopSurvivors(agent: AgentProcess): Promise<SurvivorReport> {
    return stopAgentSurvivors(agent);
  }

  async #run(
    request: ExecutionRequest,
    options: ExecuteOptions,
  ): Promise<{ result: ExecutionResult; run: ClaudeRun }> {
    const settings = this.#options;
    const parser = createClaudeStreamParser();
    const { onLine, onEvent } = settings;
    const command = new CommandExecutor({
      name: this.name,
      command: settings.bin ?? "claude",
      args: buildClaudeArgs(settings, request),
      promptVia: "argument",
      promptArgument: (_prompt, args) => args,
      cwd: settings.cwd,
      env: settings.env,
      idleTimeoutMs: settings.idleTimeoutMs,
      tailBytes: KEPT_OUTPUT_BYTES,
      progress: settings.progress,
      onLine: (line) => {
        if (line.stream === "stdout") {
          parser.push(line.text);
          if (onEvent !== undefined) {
            const event = eventOf(line.text);
            if (event !== null) onEvent(event);
          }
        }
        onLine?.(line);
      },
      parse: (run) =>
        toExecutionResult(parser.finish(), {
          exitCode: run.exitCode,
          timedOut: run.timedOut,
          now: Date.now(),
          stderr: run.stderr,
        }),
    });
    const result = await command.execute(request, options);
    return { result, run: parser.finish() };
  }
}
