import type { LoopConfig, LoopConfigInput } from "../config/loop-config.js";
import type { Logger } from "../observe/logger.js";
import type { PlanSource } from "../plan/plan-source.js";
import type { ExitPolicyInput } from "../policy/exit-policy-input.js";
import type { ExitReason } from "../policy/exit-reasons.js";
import type { ExitDecision } from "../policy/should-exit.js";
import type { LoopState } from "../state/loop-state.js";
import type { StateStore } from "../state/state-store.js";
import type { Clock } from "./clock.js";
import type { Executor } from "./executor.js";
import type { SharedLimits } from "./shared-limits.js";
import type { Workspaces } from "./workspace.js";

/**
 * An exit policy: the default {@link shouldExit}, or a user's own that wraps or replaces it
 * (it gets the default as its second argument).
 */
export type ExitPolicy = (
  input: ExitPolicyInput,
  defaultPolicy: (input: ExitPolicyInput) => ExitDecision,
) => ExitDecision;

/** Options of {@link runLoop} and {@link createLoop}. */
export interface RunLoopOptions {
  /**
   * The plan: a markdown plan, or a prd.json (a source whose path ends in `.json`), read afresh
   * every iteration so a user or the agent may edit it while the loop runs.
   */
  readonly plan: PlanSource;
  /** Runs each iteration's work with an agent. */
  readonly executor: Executor;
  /** Where the loop's state lives (`loop_state`, `loop_metrics` per terminal). */
  readonly store: StateStore;
  /** Receives the decision events; best-effort (a failing logger never stops the loop). */
  readonly logger?: Logger | undefined;
  /** Config overrides, on top of {@link RunLoopOptions.loadConfig}'s and the defaults. */
  readonly config?: LoopConfigInput | undefined;
  /**
   * Reads the config (for example `.claude/loop/config.yaml` through `loadConfigFile`), called
   * at the start of every iteration so edits apply while the loop runs.
   */
  readonly loadConfig?: (() => Promise<LoopConfig | LoopConfigInput>) | undefined;
  /**
   * The project the loop works in (its folder, as a path), when it has one: its terminals share
   * one plan unless `plans.allow_per_terminal_plan` is `true`, so while this loop runs, a
   * loop in another terminal of the same project is refused (`PlanInUseError`), whatever its
   * plan. Without it only the plan file's own lock applies (two loops on one plan are always
   * refused). The CLI passes the project's folder.
   */
  readonly projectRoot?: string | undefined;
  /** The terminal whose state this loop uses (a CLI passes `getTerminalId` of its environment). Default `default`. */
  readonly terminalId?: string | undefined;
  /** Stops the loop: the running execution is aborted, state written, `aborted` returned. */
  readonly signal?: AbortSignal | undefined;
  /** Time, injected for tests; default {@link systemClock}. */
  readonly clock?: Clock | undefined;
  /** A user's exit policy wrapping or replacing {@link shouldExit}. */
  readonly policy?: ExitPolicy | undefined;
  /** Prompt options. */
  readonly prompt?:
    | {
        /** A prompt template (for example a ralph_loop.sh `PROMPT.md`'s text). See docs/prompts.md. */
        readonly template?: string | null | undefined;
        /** The template's file name, for the positions in its errors (`PROMPT.md:3:4 …`). */
        readonly templateFile?: string | null | undefined;
        /** The `<promise>TEXT</promise>` completion promise the agent may make. */
        readonly completionPromise?: string | null | undefined;
      }
    | undefined;
  /** Makes run ids; default: the start time in base 36 plus a counter. */
  readonly generateRunId?: (() => string) | undefined;
  /** Receives errors of the logger (reported once) and of metrics writes. */
  readonly onLoggerError?: ((error: unknown) => void) | undefined;
  /**
   * Runs tasks that may run at once (see `scheduleTasks`) on several workers, each task in its
   * own working copy, its work brought back one task at a time (`loop run --parallel N`; see
   * docs/parallel-runs.md). Without it, or with one worker, tasks run one at a time in the
   * project itself.
   */
  readonly parallel?: ParallelOptions | undefined;
  /**
   * Limits this loop shares with others — an hourly call limit and a cost budget held by the
   * whole fleet (`createMemorySharedLimits` of `@loop/memory` for loops in one process; see
   * docs/shared-limits.md). Every agent call is claimed from it first, and every cost recorded
   * in it; a parallel run's workers share it. This loop's own `limits` still apply.
   */
  readonly sharedLimits?: SharedLimits | undefined;
}

/** {@link RunLoopOptions.parallel}: how many workers, and where their tasks are worked on. */
export interface ParallelOptions {
  /** How many tasks may run at once: an integer ≥ 1. */
  readonly workers: number;
  /** Gives each task its working copy and integrates its work (`gitWorkspaces` of `@loop/git`). */
  readonly workspaces: Workspaces;
  /**
   * Resolves a merge conflict before the task is run again: it gets a request of kind `merge`
   * whose `workspace` holds the conflicted merge, and resolves the conflicts there (the
   * workspace then checks none is left and completes the merge). Its calls count toward the
   * hourly limit and its cost toward the budget. Without it a conflicting task is run again
   * from the new main line.
   */
  readonly mergeExecutor?: Executor | undefined;
}

/** What a finished loop tells its caller. `runLoop` resolves with it; it never rejects. */
export interface LoopResult {
  /** Why the loop stopped. */
  readonly exitReason: ExitReason;
  /** Whether every required task of the plan (or every prd story) is done. */
  readonly complete: boolean;
  /** Iterations run by this call. */
  readonly iterations: number;
  /** Iterations run in total for this terminal, earlier runs included. */
  readonly totalIterations: number;
  /** Ids of the tasks completed (in total). */
  readonly tasksCompleted: readonly string[];
  /** Ids of the tasks that used their attempts. */
  readonly tasksFailed: readonly string[];
  /** Cost reported by the agent in this call, in US dollars. */
  readonly costUsd: number;
  /** Wall time of this call, in milliseconds (injected clock). */
  readonly durationMs: number;
  /** The final `loop_state.json` document, `null` if it could not be read or written. */
  readonly state: LoopState | null;
  /** The last exit decision, with every check. */
  readonly decision: ExitDecision | null;
  /**
   * The error that stopped the loop, for `plan_error`, `config_error`, `state_error`,
   * `limits_error`, `error`.
   */
  readonly error: Error | null;
}
