import type { Task } from "../plan/task.js";
import type { PermissionDenial } from "../status/permission-denials.js";
import type { ChatTurn } from "../verify/chat-turn.js";
import type { Concern } from "../verify/user-concerns.js";
import type { AgentProcess, SurvivorReport } from "./agent-process-info.js";

/** What the engine asks an {@link Executor} to do in one iteration. */
export interface ExecutionRequest {
  /**
   * `task`: work on {@link ExecutionRequest.task}; `wrap_up`: every task is done, verify and
   * signal; `merge` (a parallel run's merge agent): resolve the conflicted merge of the task's
   * work in {@link ExecutionRequest.workspace}.
   */
  readonly kind: "task" | "wrap_up" | "merge";
  /** The task to work on; `null` for a wrap-up iteration. */
  readonly task: Task | null;
  /** The full prompt for the agent (the engine's template, filled in). */
  readonly prompt: string;
  /** The iteration number, from 1, counted across runs of the same terminal. */
  readonly iteration: number;
  /** Which attempt at this task this is, from 1 (1 for a wrap-up). */
  readonly attempt: number;
  /** The terminal whose loop this is. */
  readonly terminalId: string;
  /** The plan: its path (or name) and its text as the engine read it this iteration. */
  readonly plan: { readonly path: string; readonly text: string };
  /** The agent session of the previous iteration, for executors that continue sessions. */
  readonly sessionId: string | null;
  /** Requirements the last verification found unmet, so the agent can act on them. */
  readonly unmetRequirements: readonly string[];
  /** Unresolved user concerns the last verification found. */
  readonly concerns: readonly Concern[];
  /**
   * In a parallel run (`runLoop`'s `parallel`), the task's own working copy: run the agent in
   * `path` instead of your usual working directory. The plan the agent edits,
   * {@link ExecutionRequest.plan}, is the copy inside it. The engine measures the run's progress
   * there itself, so a progress probe of your own directories is not needed (and is skipped by
   * the executors of `@loop/exec` and `@loop/claude`). Absent in a serial run.
   */
  readonly workspace?: RequestWorkspace | undefined;
}

/** {@link ExecutionRequest.workspace}: where a parallel run's task is worked on. */
export interface RequestWorkspace {
  /** The working copy's absolute path. */
  readonly path: string;
  /** What holds its work (with git, the task's branch), for logs. */
  readonly branch: string;
}

/** Options of {@link Executor.execute}. */
export interface ExecuteOptions {
  /**
   * Fires when the iteration times out (`limits.iteration_timeout_minutes`) or the loop is
   * aborted: stop the agent (its whole process tree) and return or throw promptly.
   */
  readonly signal: AbortSignal;
  /**
   * Saves the agent process the executor starts in the loop's state (`agent_process`), so that
   * if this loop is killed while the agent runs, the next run can stop what is left of it
   * (`stopSurvivors`). Call it before starting the process, with the `token` put in its
   * environment, and again with its `pgid` once it is started — or once, with its `pgid`, for a
   * process started ahead and held before the program runs (see `Executor.release`); the
   * promise resolves once the record is saved, and rejects when it cannot be (then do not start
   * the process, or do not let it run). Absent when the caller keeps no record (a test calling
   * `execute` directly).
   */
  readonly recordProcess?: ((agent: AgentProcess) => Promise<void>) | undefined;
}

/** A usage limit the agent's provider reported: the loop waits for the reset or exits. */
export interface UsageLimit {
  /** When the limit resets, in epoch milliseconds; `null` when unknown. */
  readonly resetAt: number | null;
  /** Whether waiting lifts it (`false`: an administrative block or a spend cap). */
  readonly waitable: boolean;
  /** The provider's words, for logs. */
  readonly message: string;
}

/** What one execution produced. */
export interface ExecutionResult {
  /** The agent's final answer text (never the prompt): what `analyzeResponse` reads. */
  readonly output: string;
  /** Whether the run itself succeeded (no crash, no error result). Not the same as task done. */
  readonly success: boolean;
  /**
   * The executor's explicit word that the task is complete, for executors that do not edit the
   * plan: the engine then checks the box itself. An agent merely saying it is done is not this.
   */
  readonly taskComplete?: boolean | undefined;
  /** The agent session id, continued in the next iteration. */
  readonly sessionId?: string | null | undefined;
  /** Cost of this run in US dollars, for `limits.max_cost_usd`. */
  readonly costUsd?: number | undefined;
  /**
   * Tokens this run used, when the agent reports them: `input` counts every prompt token (cache
   * reads and writes included), `output` the generated ones. Reported in `iteration-end` events.
   */
  readonly tokens?: { readonly input: number; readonly output: number } | undefined;
  /** Files changed by this run (commits included), for progress detection. */
  readonly filesChanged?: number | undefined;
  /** Tools the agent was denied. */
  readonly permissionDenials?: readonly PermissionDenial[] | undefined;
  /** A usage limit that stopped the run; the iteration does not count as a task failure. */
  readonly usageLimit?: UsageLimit | undefined;
  /** The conversation of this run, when the executor has it, for user-concern extraction. */
  readonly transcript?: readonly ChatTurn[] | undefined;
  /** A short description of the failure when `success` is false. */
  readonly error?: string | undefined;
  /**
   * The agent's whole answer as it printed it, for the per-iteration log (`loop logs`): never
   * parsed by the engine. Claude Code's is the stream-json lines of stdout; a command's (the
   * Codex, Gemini, Aider and Amp presets') its stdout, then, when it wrote any, a line
   * `--- stderr ---` and its stderr. Executors keep it bounded: they keep the end, and a first
   * line `[loop: the first … bytes of stdout were cut …]` says when the start was dropped.
   * Absent when the executor keeps none (the log then shows `output`).
   */
  readonly raw?: string | undefined;
}

/**
 * Runs one iteration's work with an agent: Claude Code, Codex, an in-process model call,
 * anything. Throwing counts as a failed attempt at the task, never a loop crash.
 *
 * @example
 * ```ts
 * const executor: Executor = {
 *   name: "echo",
 *   specificationVersion: "v1",
 *   async execute(request) {
 *     return { output: `worked on ${request.task?.id}`, success: true, taskComplete: true };
 *   },
 * };
 * ```
 */
export interface Executor {
  /** A short name for logs. */
  readonly name: string;
  /** The version of this interface the executor implements. */
  readonly specificationVersion: "v1";
  /** Runs the agent once for `request`. */
  execute(request: ExecutionRequest, options: ExecuteOptions): Promise<ExecutionResult>;
  /**
   * Optional, for executors that start processes: stops what is left of an agent a previous run
   * started and never saw end (that run was killed while the agent ran), as `recordProcess`
   * described it. The engine calls it when a run starts, under the terminal's lock, before any
   * agent of its own starts. It must signal only processes it can prove are that agent's (a pid
   * may have been given to another process since), and resolve once they are gone or could not
   * be stopped. Without it the record is dropped and nothing is stopped.
   *
   * An executor with this method calls `recordProcess` before it starts each process (and
   * starts none when that fails): the engine saves the iteration's call count
   * (`limits.max_calls_per_hour`) with that first record rather than in a write of its own
   * before `execute`, so the count is still saved before the agent runs.
   */
  stopSurvivors?(agent: AgentProcess): Promise<SurvivorReport>;
  /**
   * Optional: the engine calls it once a run is over (however it ended, after the last
   * `execute` resolved; the run's executor and its merge executor), so that an executor holding something ready for a next `execute` —
   * `CommandExecutor` starts the next agent's process ahead, waiting for its go — lets it go.
   * An executor may be run again after it. It must not throw.
   */
  release?(): void;
}
